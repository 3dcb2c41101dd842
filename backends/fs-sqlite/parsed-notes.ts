/**
 * Parsed notes by id, reused while the file is byte-for-byte the same (content hash) with the
 * same times: a repeated read then costs a read, a hash and a UTF-8 decode, not a YAML parse,
 * and no index freshness lookup (the index was brought up to date when the entry was made).
 * An entry keeps what the parse produced, not the content: the body is the tail of the file's
 * text, so a hit slices it from the text just read. That keeps an entry to its frontmatter's
 * size.
 * Bounded by count and by characters kept (RSS grew 251 → 398 MB under 8 clients while entries
 * held content), least recently used first out. Callers get copies, so nobody edits the cached note.
 */
import type { Stats } from 'node:fs';
import type { Note } from '../../kernel/note.js';

/** 16,384 was tried: the cache went on filling after a soak's warm-up, and RSS with it (decision 009). */
const DEFAULT_LIMIT = 4_096;
/** Frontmatter and titles held (estimated from the file's size less its body), in characters. */
const DEFAULT_MAX_CHARS = 8 * 1024 * 1024;

interface Entry {
  key: string;
  /** The note with an empty content. */
  note: Note;
  /** Length of the body, the tail of the file's text. */
  contentChars: number;
  chars: number;
}

export class ParsedNotes {
  private readonly entries = new Map<string, Entry>();
  private chars = 0;

  constructor(
    private readonly limit = DEFAULT_LIMIT,
    private readonly maxChars = DEFAULT_MAX_CHARS,
  ) {}

  static key(contentHash: string, stats: Pick<Stats, 'mtimeMs' | 'birthtimeMs'>): string {
    return `${contentHash}:${stats.mtimeMs}:${stats.birthtimeMs}`;
  }

  /**
   * The note parsed from these exact bytes before, its content sliced from `text` (their decoded
   * text, asked for only on a hit; undefined when they do not decode, which is no hit).
   */
  get(id: string, key: string, text: () => string | undefined): Note | undefined {
    const entry = this.entries.get(id);
    if (!entry || entry.key !== key) return undefined;
    const full = text();
    if (full === undefined || full.length < entry.contentChars) return undefined;
    this.entries.delete(id);
    this.entries.set(id, entry);
    const note = copyOf(entry.note);
    note.content = full.slice(full.length - entry.contentChars);
    return note;
  }

  /** `note` as parsed from a file's text: its content must be that text's tail (parseMarkdown's body). */
  set(id: string, key: string, note: Note): void {
    this.delete(id);
    const chars = Math.max(0, (note.size ?? 0) - note.content.length) + note.title.length;
    if (chars > this.maxChars / 8) return; // one huge frontmatter would evict everything else: not cached
    this.entries.set(id, { key, note: { ...copyOf(note), content: '' }, contentChars: note.content.length, chars });
    this.chars += chars;
    while (this.entries.size > this.limit || this.chars > this.maxChars)
      this.delete(this.entries.keys().next().value as string);
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
