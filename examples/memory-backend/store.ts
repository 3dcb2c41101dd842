/**
 * A NoteStore that keeps notes in a Map: the smallest store that passes the NoteStore contract.
 * Copy it to start a backend of your own; every method here is one the kernel calls.
 */
import { createHash } from 'node:crypto';
import {
  ConflictError,
  ContentHashMismatchError,
  NotFoundError,
  ValidationError,
  type ListQuery,
  type NewNote,
  type Note,
  type NoteChange,
  type NoteEdit,
  type NoteStore,
  type NoteSummary,
  type SearchIndex,
} from 'notekernel';

export class MemoryStore implements NoteStore {
  private readonly notes = new Map<string, Note>();
  private lastStamp = 0;

  /** `index`: the store's own search index, told of every write (a `both` backend keeps the two in step itself). */
  constructor(private readonly index?: SearchIndex) {}

  async get(id: string): Promise<Note | undefined> {
    const note = this.notes.get(id);
    return note && structuredClone(note);
  }

  async list(query: ListQuery = {}): Promise<NoteSummary[]> {
    const orderBy = query.orderBy ?? 'updated';
    const sign = query.direction === 'asc' ? 1 : -1;
    const rows = [...this.notes.values()]
      .filter((n) => query.type === undefined || n.type === query.type)
      .sort((a, b) => compare(a[orderBy], b[orderBy]) * sign || compare(a.id, b.id));
    const offset = query.offset ?? 0;
    return rows.slice(offset, query.limit !== undefined ? offset + query.limit : undefined).map(summaryOf);
  }

  async count(query: Pick<ListQuery, 'type'> = {}): Promise<number> {
    return (await this.list(query)).length;
  }

  async create(input: NewNote): Promise<Note> {
    checkTags(input.tags);
    const id = input.slug ?? slugOf(input.title);
    if (this.notes.has(id)) throw new ConflictError(`A note with id "${id}" already exists.`, { id });
    const now = this.stamp();
    const note = withHash({
      id,
      title: input.title,
      content: input.content,
      tags: input.tags ?? [],
      metadata: input.metadata ?? {},
      created: now,
      updated: now,
      ...(input.type ? { type: input.type } : {}),
    });
    this.notes.set(id, note);
    await this.index?.upsert(note);
    return structuredClone(note);
  }

  async update(id: string, edit: NoteChange | NoteEdit, expectedHash: string): Promise<Note> {
    const current = this.require(id);
    if (current.contentHash !== expectedHash) {
      throw new ContentHashMismatchError(current.contentHash, expectedHash, { id });
    }
    const change = typeof edit === 'function' ? await edit(structuredClone(current)) : edit;
    // The edit may have awaited: a write that landed meanwhile wins, this one is refused.
    if (this.require(id) !== current)
      throw new ContentHashMismatchError(this.require(id).contentHash, expectedHash, { id });
    checkTags(change.tags);
    const { contentHash: _old, ...rest } = current;
    const note = withHash({ ...rest, ...definedOf(change), updated: this.stamp() });
    this.notes.set(id, note);
    await this.index?.upsert(note);
    return structuredClone(note);
  }

  async delete(id: string, expectedHash?: string): Promise<Note> {
    const current = this.require(id);
    if (expectedHash !== undefined && current.contentHash !== expectedHash) {
      throw new ContentHashMismatchError(current.contentHash, expectedHash, { id });
    }
    this.notes.delete(id);
    await this.index?.remove(id);
    return current;
  }

  async close(): Promise<void> {}

  private require(id: string): Note {
    const note = this.notes.get(id);
    if (!note) throw new NotFoundError(`Note not found: ${id}`, { identifier: id });
    return note;
  }

  /** ISO times that strictly increase, so "updated" orders writes even within one millisecond. */
  private stamp(): string {
    this.lastStamp = Math.max(Date.now(), this.lastStamp + 1);
    return new Date(this.lastStamp).toISOString();
  }
}

function withHash(note: Omit<Note, 'contentHash'>): Note {
  const canonical = JSON.stringify([note.title, note.content, note.tags, note.metadata, note.type ?? null]);
  return { ...note, contentHash: `sha256:${createHash('sha256').update(canonical).digest('hex')}` };
}

function summaryOf(note: Note): NoteSummary {
  const { content: _content, warnings: _warnings, ...summary } = structuredClone(note);
  return summary;
}

function definedOf(change: NoteChange): NoteChange {
  return Object.fromEntries(Object.entries(change).filter(([, value]) => value !== undefined));
}

function checkTags(tags: readonly unknown[] | undefined): void {
  const bad = tags?.findIndex((tag) => typeof tag !== 'string' || tag.trim() === '');
  if (bad !== undefined && bad >= 0)
    throw new ValidationError(`tags.${bad} must be a non-empty string.`, { field: `tags.${bad}` });
}

function slugOf(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-|-$/g, '');
  return slug || 'untitled';
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
