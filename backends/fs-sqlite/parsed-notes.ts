/**
 * Parsed notes by id, reused while the file is byte-for-byte the same (content hash) with the
 * same times: a repeated read then costs a read and a hash, not a YAML parse, and no index
 * freshness lookup (the index was brought up to date when the entry was made).
 * Bounded by count and by bytes (a few large notes must not hold hundreds of MB: RSS grew
 * 251 → 398 MB under 8 clients), least recently used first out. Callers get copies, so nobody
 * edits the cached note.
 */
import type { Stats } from 'node:fs';
import type { Note } from '../../kernel/note.js';

/**
 * Enough for a 10,000-note vault to stay cached once read (at 4,096, 100 random reads of such a
 * vault missed ~60 % of the time: a YAML parse and an index lookup each, decision 009). The
 * content bound below holds the memory; the count only caps the per-entry overhead of tiny notes.
 */
const DEFAULT_LIMIT = 16_384;
/** Content held, in UTF-16 code units (about twice as many bytes). */
const DEFAULT_MAX_CHARS = 32 * 1024 * 1024;

export class ParsedNotes {
  private readonly entries = new Map<string, { key: string; note: Note; chars: number }>();
  private chars = 0;

  constructor(
    private readonly limit = DEFAULT_LIMIT,
    private readonly maxChars = DEFAULT_MAX_CHARS,
  ) {}

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
    this.delete(id);
    const chars = note.content.length + note.title.length;
    if (chars > this.maxChars / 8) return; // one huge note would evict everything else: not cached
    this.entries.set(id, { key, note: copyOf(note), chars });
    this.chars += chars;
    while (this.entries.size > this.limit || this.chars > this.maxChars) this.delete(this.entries.keys().next().value as string);
  }

  delete(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    this.entries.delete(id);
    this.chars -= entry.chars;
  }
}

function copyOf(note: Note): Note {
  const copy: Note = { ...note, tags: [...note.tags], metadata: { ...note.metadata } };
  if (note.warnings) copy.warnings = [...note.warnings];
  return copy;
}
