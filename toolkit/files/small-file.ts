/**
 * Reads and metadata changes of small local files, done synchronously. A note is a few KB in the
 * page cache: the syscall takes microseconds, while a round trip through libuv's thread pool
 * costs five to ten times that (measured: 1,000 reads 8 ms sync vs 54 ms async in parallel).
 * Only fsync, which waits for the disk, stays asynchronous. Decision 010 has the trade-off.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';

/** Above this a read goes through the thread pool: it is no longer "small". */
const SYNC_READ_LIMIT = 4 * 1024 * 1024;

export interface FileRead {
  bytes: Buffer;
  /** From the descriptor the bytes came from, so they describe exactly that content. */
  stats: fs.Stats;
}

/** The file's bytes and stats, or undefined when nothing (or a folder) is there. */
export async function readSmallFile(absolute: string): Promise<FileRead | undefined> {
  let fd: number;
  try {
    fd = fs.openSync(absolute, 'r');
  } catch (err) {
    if (isMissing(err)) return undefined;
    throw err;
  }
  try {
    const stats = fs.fstatSync(fd);
    if (stats.isDirectory()) return undefined;
    if (stats.size > SYNC_READ_LIMIT) {
      const handle = await fsp.open(absolute, 'r');
      try {
        return { bytes: await handle.readFile(), stats: await handle.stat() };
      } finally {
        await handle.close();
      }
    }
    return { bytes: readAll(fd, stats.size), stats };
  } finally {
    fs.closeSync(fd);
  }
}

/** Reads to the end even if the file grew since fstat. */
function readAll(fd: number, size: number): Buffer {
  let buffer = Buffer.allocUnsafe(Math.max(size, 1024));
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      const bigger = Buffer.allocUnsafe(buffer.length * 2);
      buffer.copy(bigger);
      buffer = bigger;
    }
    const n = fs.readSync(fd, buffer, length, buffer.length - length, null);
    if (n === 0) return buffer.subarray(0, length);
    length += n;
  }
}

function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR';
}
