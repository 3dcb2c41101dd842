/**
 * One changed file → the row to index, or why it is skipped. Pure and synchronous, so it runs
 * the same on the main thread and in the parse worker.
 */
import { isSkipped, readFileSyncChecked } from '../../toolkit/files/small-file.js';
import type { IndexedNote } from './index-db.js';
import { decodeNoteBytes, readNoteFile, toIndexed } from './note-file.js';

export interface ChangedFile {
  id: string;
  type: string;
  absolutePath: string;
  size: number;
  mtimeMs: number;
  birthtimeMs: number;
  readHardLinks?: boolean;
}

export type ParsedFile =
  | { ok: true; note: IndexedNote; warnings?: string[] }
  | {
      ok: false;
      id: string;
      reason: string /** the file is there but unreadable as a note: drop any old row */;
      remove: boolean;
    };

export function parseChangedFile(file: ChangedFile): ParsedFile {
  let bytes: Uint8Array;
  try {
    // The scan checked the file; this check covers a swap since (a FIFO would block the thread).
    const read = readFileSyncChecked(file.absolutePath, { readHardLinks: file.readHardLinks === true });
    if (!read) return { ok: false, id: file.id, reason: 'the file is gone', remove: false };
    if (isSkipped(read)) return { ok: false, id: file.id, reason: read.skipped, remove: true };
    bytes = read.bytes;
  } catch (err) {
    return { ok: false, id: file.id, reason: (err as Error).message, remove: false };
  }
  const decoded = decodeNoteBytes(bytes);
  if (!decoded.ok) return { ok: false, id: file.id, reason: decoded.reason, remove: true };
  const stats = {
    size: file.size,
    mtimeMs: file.mtimeMs,
    mtime: new Date(file.mtimeMs),
    birthtime: new Date(file.birthtimeMs),
  };
  const note = readNoteFile({
    id: file.id,
    type: file.type,
    absolutePath: file.absolutePath,
    bytes,
    text: decoded.text,
    stats,
  });
  return { ok: true, note: toIndexed(note, file.mtimeMs), ...(note.warnings ? { warnings: note.warnings } : {}) };
}
