/**
 * Reads and metadata changes of small local files, done synchronously. A note is a few KB in the
 * page cache: the syscall takes microseconds, while a round trip through libuv's thread pool
 * costs five to ten times that (measured: 1,000 reads 8 ms sync vs 54 ms async in parallel).
 * Only fsync, which waits for the disk, stays asynchronous. Decision 010 has the trade-off.
 */
import fs from 'node:fs';
import path from 'node:path';
import { TEMP_PREFIX } from './atomic-write.js';

/** Above this a read goes through the thread pool: it is no longer "small". */
const SYNC_READ_LIMIT = 4 * 1024 * 1024;

export interface FileRead {
  bytes: Buffer;
  /** From the descriptor the bytes came from, so they describe exactly that content. */
  stats: fs.Stats;
}

/** A file that is there but is not read as a note or vault file, and why. */
export interface SkippedFile {
  skipped: string;
}

export interface ReadRules {
  /** Read a regular file with more than one hard link (off: it may be a file outside the vault). */
  readHardLinks?: boolean;
}

/**
 * Why a file is not read, or undefined when it may be: only regular files are notes. A FIFO
 * would block the reading thread until some writer came; a device could stream forever. A
 * hard link is a second name of a file that may live outside the vault, like a symlink out.
 */
export function skipReason(stats: fs.Stats, rules: ReadRules = {}, absolute?: string): string | undefined {
  if (!stats.isFile()) return `not a regular file (${fileKind(stats)}); only regular files are read`;
  if (stats.nlink > 1 && !rules.readHardLinks && stats.nlink - ownTempLinks(stats, absolute) > 1) {
    return 'a hard-linked file (another name of it may be outside the vault); not read unless readHardLinks is set';
  }
  return undefined;
}

/**
 * Names of this file that are an atomic write's own, for a moment: the replaced version kept
 * under a temp name until the rename lands (RetiredFiles), or a created file's temp name until
 * it is unlinked. A reader in another process must not take those for a link out of the vault.
 * Looked up only for a file with several links, which is rare.
 */
function ownTempLinks(stats: fs.Stats, absolute: string | undefined): number {
  if (absolute === undefined) return 0;
  const dir = path.dirname(absolute);
  let count = 0;
  try {
    for (const name of fs.readdirSync(dir)) {
      if (!name.startsWith(TEMP_PREFIX)) continue;
      const other = fs.statSync(path.join(dir, name), { throwIfNoEntry: false });
      if (other && other.ino === stats.ino && other.dev === stats.dev) count += 1;
    }
  } catch {
    return 0;
  }
  return count;
}

function fileKind(stats: fs.Stats): string {
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isSymbolicLink()) return 'a symbolic link';
  return 'not a file';
}

/** O_NONBLOCK: opening a FIFO returns at once instead of waiting for a writer (a blocked event loop). */
const OPEN_FLAGS = fs.constants.O_RDONLY | fs.constants.O_NONBLOCK;

/**
 * The file's bytes and stats; undefined when nothing (or a folder) is there; `skipped` with the
 * reason for what is there but not a readable file (skipReason). Never blocks on a FIFO.
 */
export async function readSmallFile(
  absolute: string,
  rules: ReadRules = {},
): Promise<FileRead | SkippedFile | undefined> {
  const opened = openChecked(absolute, rules);
  if (!opened || 'skipped' in opened) return opened;
  const { fd, stats } = opened;
  try {
    if (stats.size > SYNC_READ_LIMIT) {
      // The same descriptor, read through the thread pool: the file checked is the file read.
      const bytes = await new Promise<Buffer>((resolve, reject) =>
        fs.readFile(fd, (err, data) => (err ? reject(err) : resolve(data))),
      );
      return { bytes, stats };
    }
    return { bytes: readAll(fd, stats.size), stats };
  } finally {
    fs.closeSync(fd);
  }
}

/** readSmallFile, all synchronous (the parse worker's thread has nothing else to serve). */
export function readFileSyncChecked(absolute: string, rules: ReadRules = {}): FileRead | SkippedFile | undefined {
  const opened = openChecked(absolute, rules);
  if (!opened || 'skipped' in opened) return opened;
  try {
    return { bytes: readAll(opened.fd, opened.stats.size), stats: opened.stats };
  } finally {
    fs.closeSync(opened.fd);
  }
}

/** An open descriptor on a readable file (the caller closes it), or why there is none to read. */
function openChecked(absolute: string, rules: ReadRules): { fd: number; stats: fs.Stats } | SkippedFile | undefined {
  let fd: number;
  try {
    fd = fs.openSync(absolute, OPEN_FLAGS);
  } catch (err) {
    if (isMissing(err)) return undefined;
    // ENXIO: a socket (or a FIFO opened for writing only); never a note.
    if ((err as NodeJS.ErrnoException).code === 'ENXIO')
      return { skipped: 'not a regular file (a socket); only regular files are read' };
    throw err;
  }
  let stats: fs.Stats;
  try {
    stats = fs.fstatSync(fd);
  } catch (err) {
    fs.closeSync(fd);
    throw err;
  }
  const skipped = stats.isDirectory() ? undefined : skipReason(stats, rules, absolute);
  if (stats.isDirectory() || skipped) {
    fs.closeSync(fd);
    return skipped ? { skipped } : undefined;
  }
  return { fd, stats };
}

/**
 * Reads to the end even if the file grew since fstat. The buffer has room past the size fstat
 * gave, so a read that reaches that size without filling the buffer has met the end of the
 * file: one read for a file that did not change, not a second one that returns nothing after a
 * doubled buffer.
 */
function readAll(fd: number, size: number): Buffer {
  let buffer = Buffer.allocUnsafe(Math.max(size + 1, 1024));
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      const bigger = Buffer.allocUnsafe(buffer.length * 2);
      buffer.copy(bigger);
      buffer = bigger;
    }
    const room = buffer.length - length;
    const n = fs.readSync(fd, buffer, length, room, null);
    length += n;
    // Short of the size fstat gave, a short read is read on (a signal may cut one short).
    if (n === 0 || (n < room && length >= size)) return buffer.subarray(0, length);
  }
}

export function isSkipped(read: FileRead | SkippedFile | undefined): read is SkippedFile {
  return read !== undefined && 'skipped' in read;
}

function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR';
}
