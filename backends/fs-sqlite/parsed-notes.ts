/**
 * Parsed notes by id, reused while the file is byte-for-byte the same (content hash) with the
 * same times: a repeated read then costs a read and a hash, not a YAML parse, and no index
 * freshness lookup (the index was brought up to date when the entry was made).
 * Bounded, least recently used first out. Callers get copies, so nobody edits the cached note.
 */
import type { Stats } from 'node:fs';
import type { Note } from '../../kernel/note.js';

const DEFAULT_LIMIT = 4096;

export class ParsedNotes {
  private readonly entries = new Map<string, { key: string; note: Note }>();

  constructor(private readonly limit = DEFAULT_LIMIT) {}

  static key(contentHash: string, stats: Pick<Stats, 'mtimeMs' | 'birthtimeMs'>): string {
    return `${contentHash}:${stats.mtimeMs}:${stats.birthtimeMs}`;
  }

  get(id: string, key: string): Note | undefined {
    const entry = this.entries.get(id);
    if (!entry || entry.key !== key) return undefined;
    this.entries.delete(id);
    this.entries.set(id, entry);
    return copyOf(entry.note);
  }

  set(id: string, key: string, note: Note): void {
    this.entries.delete(id);
    this.entries.set(id, { key, note: copyOf(note) });
    if (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value as string);
  }

  delete(id: string): void {
    this.entries.delete(id);
  }
}

function copyOf(note: Note): Note {
  const copy: Note = { ...note, tags: [...note.tags], metadata: { ...note.metadata } };
  if (note.warnings) copy.warnings = [...note.warnings];
  return copy;
}
