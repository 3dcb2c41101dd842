/**
 * One entry file → what the index keeps of it (EntryRecord) and → the canonical Note. Reading
 * never throws on content: a file without a heading is served with a warning; only bytes that
 * are not text (NUL, invalid UTF-8) make a file unreadable.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { isSkipped, readSmallFile } from '../../toolkit/files/small-file.js';
import type { Metadata, Note, NoteSummary } from '../../kernel/note.js';
import { contentHash } from '../../toolkit/hash.js';
import { filenameOf, placementOf, titleFromFilename } from '../../toolkit/agent-memory/entry-name.js';
import { parseEntry, type ParsedEntry } from '../../toolkit/agent-memory/entry-format.js';

export interface EntryRecord {
  id: string;
  /** Vault-relative, `/`-separated. */
  relPath: string;
  title: string;
  tags: string[];
  size: number;
  mtimeMs: number;
  birthtimeMs: number;
  contentHash: string;
  /** git's blob id of the bytes: equal to HEAD's blob at this path means "committed". */
  blobOid: string;
  warnings: string[];
}

export interface EntryTimes {
  created: string;
  updated: string;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

export type ReadOutcome =
  | { ok: true; record: EntryRecord; parsed: ParsedEntry; text: string }
  | { ok: false; reason: string }
  | { ok: false; missing: true; reason: string };

export async function readEntryFile(root: string, relPath: string, id: string): Promise<ReadOutcome> {
  const absolute = path.join(root, ...relPath.split('/'));
  // Only regular files with one link: a FIFO would block, a hard link may be a file outside the root.
  const read = await readSmallFile(absolute);
  if (!read) return { ok: false, missing: true, reason: 'the file is gone' };
  if (isSkipped(read)) return { ok: false, reason: read.skipped };
  const { bytes, stats } = read;
  const decoded = decode(bytes);
  if (typeof decoded !== 'string') return { ok: false, reason: decoded.reason };
  const parsed = parseEntry(decoded);
  const filename = filenameOf(relPath);
  const warnings: string[] = [];
  let title = parsed.title;
  if (title === undefined) {
    title = titleFromFilename(filename);
    warnings.push(`no "# heading": the title "${title}" is taken from the filename`);
  }
  const record: EntryRecord = {
    id,
    relPath,
    title,
    tags: parsed.tags,
    size: stats.size,
    mtimeMs: stats.mtimeMs,
    // Some filesystems report no birth time (0): the modification time is the best we have.
    birthtimeMs: stats.birthtimeMs > 0 ? Math.min(stats.birthtimeMs, stats.mtimeMs) : stats.mtimeMs,
    contentHash: contentHash(bytes),
    blobOid: gitBlobOid(bytes),
    warnings,
  };
  return { ok: true, record, parsed, text: decoded };
}

export function toSummary(record: EntryRecord, times: EntryTimes): NoteSummary {
  return {
    id: record.id,
    title: record.title,
    path: record.relPath,
    filename: filenameOf(record.relPath),
    created: times.created,
    updated: times.updated,
    size: record.size,
    contentHash: record.contentHash,
    tags: record.tags,
    metadata: metadataOf(record.relPath),
  };
}

export function toNote(
  record: EntryRecord,
  parsed: ParsedEntry,
  times: EntryTimes,
  extraWarnings: string[] = [],
): Note {
  const note: Note = { ...toSummary(record, times), content: parsed.content };
  const warnings = [...record.warnings, ...extraWarnings];
  if (warnings.length) note.warnings = warnings;
  return note;
}

/** Derived, read-only facts of where the file sits (001 § 3.1): nothing is stored. */
export function metadataOf(relPath: string): Metadata {
  const placement = placementOf(relPath);
  return placement.org !== undefined ? { status: placement.status, org: placement.org } : { status: placement.status };
}

export function gitBlobOid(bytes: Uint8Array): string {
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

function decode(bytes: Uint8Array): string | { reason: string } {
  if (bytes.includes(0)) return { reason: 'binary file (contains NUL bytes)' };
  try {
    return utf8.decode(bytes);
  } catch {
    return { reason: 'not valid UTF-8' };
  }
}
