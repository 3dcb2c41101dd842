/**
 * One note file → the canonical note. Reading never throws on content: undecodable files are
 * reported as skipped, bad frontmatter becomes a warning on a still-served note.
 */
import type { Stats } from 'node:fs';
import path from 'node:path';
import type { Note } from '../../kernel/note.js';
import { locationOf } from '../../toolkit/note-location.js';
import { contentHash } from '../../toolkit/hash.js';
import type { IndexedNote } from './index-db.js';
import { parseMarkdown } from './frontmatter.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

export type Decoded = { ok: true; text: string } | { ok: false; reason: string };

export function decodeNoteBytes(bytes: Uint8Array): Decoded {
  if (bytes.includes(0)) return { ok: false, reason: 'binary file (contains NUL bytes)' };
  try {
    return { ok: true, text: utf8.decode(bytes) };
  } catch {
    return { ok: false, reason: 'not valid UTF-8' };
  }
}

export interface NoteFileInput {
  id: string;
  type: string;
  absolutePath: string;
  bytes: Uint8Array;
  text: string;
  stats: Pick<Stats, 'size' | 'mtimeMs' | 'birthtime' | 'mtime'>;
  /** When the caller hashed the bytes already. */
  contentHash?: string;
}

export function readNoteFile(input: NoteFileInput): Note {
  const parsed = parseMarkdown(input.text);
  const filename = path.basename(input.absolutePath);
  const meta = parsed.metadata;
  const title = typeof meta.title === 'string' && meta.title.trim() !== '' ? meta.title : titleFromFilename(filename);
  const note: Note = {
    id: input.id,
    title,
    content: parsed.body,
    tags: tagsOf(meta.tags),
    metadata: meta,
    created: timestamp(meta.created) ?? input.stats.birthtime.toISOString(),
    updated: timestamp(meta.updated) ?? input.stats.mtime.toISOString(),
    type: input.type,
    contentHash: input.contentHash ?? contentHash(input.bytes),
    path: input.absolutePath,
    filename,
    size: input.stats.size,
  };
  if (parsed.warnings.length) note.warnings = parsed.warnings;
  return note;
}

export function toIndexed(note: Note, mtimeMs: number): IndexedNote {
  const { path, filename, size } = locationOf(note);
  return {
    id: note.id,
    title: note.title,
    content: note.content,
    type: note.type ?? '',
    filename,
    path,
    created: note.created,
    updated: note.updated,
    size,
    contentHash: note.contentHash,
    mtimeMs,
    tags: note.tags,
    metadata: note.metadata,
  };
}

export function titleFromFilename(filename: string): string {
  const stem = filename.replace(/\.md$/i, '');
  return stem.replace(/[-_]+/g, ' ').replace(/\s+/g, ' ').trim() || stem;
}

function tagsOf(value: unknown): string[] {
  if (typeof value === 'string') return value.split(/[,\s]+/).filter(Boolean);
  if (Array.isArray(value)) return value.filter((t): t is string => typeof t === 'string' && t !== '');
  return [];
}

function timestamp(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : value;
}
