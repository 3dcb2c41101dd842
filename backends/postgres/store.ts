/**
 * The postgres NoteStore: a vault's notes as rows of one table shared by every process and host.
 * An update locks its row (`SELECT … FOR UPDATE`), checks the hash, runs the edit, and writes
 * only where the hash is still the one checked, all in one transaction with its feed row: two
 * writers anywhere get exactly one winner. A batch (a rename's link rewrites) is one transaction,
 * each item under a savepoint so it fails alone.
 */
import {
  ConflictError,
  ContentHashMismatchError,
  NotFoundError,
  type ExternalChange,
  type ListQuery,
  type Logger,
  type NewNote,
  type Note,
  type NoteChange,
  type NoteEdit,
  type NoteStore,
  type NoteSummary,
  type NoteUpdate,
  type VaultFiles,
} from '../../kernel/index.js';
import { slugify } from '../../toolkit/slugify.js';
import { assertTypeName } from '../../toolkit/type-name.js';
import type { ChangeFeed } from './change-feed.js';
import { inTransaction, type PgClient, type PgPool, readQuery, storeError } from './driver.js';
import type { PgJournal } from './journal.js';
import {
  fieldsOfText,
  NOTE_COLUMNS,
  type NoteRow,
  noteOf,
  rowOf,
  type StoredRow,
  SUMMARY_COLUMNS,
  stringList,
  summaryOf,
} from './note-rows.js';
import { readsNoteAt } from './vault-files.js';
import { deleteRow, insertRow, lockRow, type Table, updateRow } from './row-writes.js';

const NOTE_SLUG = { dashes: 'whitespace', maxLength: 100 } as const;
const ORDER_COLUMNS = { updated: 'updated', created: 'created', title: 'lower(title) COLLATE "C", title COLLATE "C"' };
/** Deadlocks and serialisation failures: the whole batch is tried again, it wrote nothing. */
const RETRY_SQLSTATE = new Set(['40P01', '40001']);

export interface PgStoreDeps {
  pool: PgPool;
  /** The vault's folder: plugin-owned files, and where `files` shows each note (vault-files.ts). */
  root: string;
  table: Table;
  url: string | undefined;
  defaultType: string;
  /** The default type when the config set one (the NoteStore member exists only then). */
  configuredType?: string;
  logger: Logger;
  journal: PgJournal;
  feed: ChangeFeed;
  /** Local files with the notes shown among them (vault-files.ts), built over this store. */
  files(store: PgNoteStore): VaultFiles;
  /** Run at close, after the feed and pool (the local files' locks). */
  onClose(): void;
}

export class PgNoteStore implements NoteStore {
  readonly journal: PgJournal;
  /** This process's reader of the change feed (`watch` subscribes to it; `doctor` reads its stats). */
  readonly feed: ChangeFeed;
  readonly defaultType?: string;
  readonly files: VaultFiles;
  readonly readsNoteAt = readsNoteAt;
  private lastStamp = 0;

  constructor(private readonly deps: PgStoreDeps) {
    this.journal = deps.journal;
    this.feed = deps.feed;
    this.files = deps.files(this);
    if (deps.configuredType !== undefined) this.defaultType = deps.configuredType;
  }

  private get t(): Table {
    return this.deps.table;
  }

  /** `type/name.md`, `type/name` and `name` (the default type) name one note, as fs-sqlite's ids do. */
  normalizeId(identifier: string): string {
    let id = identifier.trim();
    if (!id.includes('/')) id = `${this.deps.defaultType}/${id}`;
    return id.toLowerCase().endsWith('.md') ? id : `${id}.md`;
  }

  async get(id: string): Promise<Note | undefined> {
    const rows = await this.read<StoredRow>(
      `SELECT ${NOTE_COLUMNS} FROM ${this.t.S}.notes WHERE vault = $1 AND id = $2`,
      [this.t.vault, this.normalizeId(id)],
    );
    return rows[0] && noteOf(rows[0], this.deps.root);
  }

  async list(query: ListQuery = {}): Promise<NoteSummary[]> {
    const column = ORDER_COLUMNS[query.orderBy ?? 'updated'];
    const direction = query.direction === 'asc' ? 'ASC' : 'DESC';
    const order = column
      .split(', ')
      .map((c) => `${c} ${direction}`)
      .join(', ');
    const rows = await this.read<Omit<NoteRow, 'body'>>(
      `SELECT ${SUMMARY_COLUMNS} FROM ${this.t.S}.notes WHERE vault = $1 AND ($2::text IS NULL OR type = $2)
       ORDER BY ${order}, id ${direction} LIMIT $3 OFFSET $4`,
      [this.t.vault, query.type ?? null, query.limit ?? null, query.offset ?? 0],
    );
    return rows.map((row) => summaryOf(row, this.deps.root));
  }

  async count(query: Pick<ListQuery, 'type'> = {}): Promise<number> {
    const rows = await this.read<{ n: string }>(
      `SELECT count(*) AS n FROM ${this.t.S}.notes WHERE vault = $1 AND ($2::text IS NULL OR type = $2)`,
      [this.t.vault, query.type ?? null],
    );
    return Number(rows[0]?.n ?? 0);
  }

  async listTypes(): Promise<string[]> {
    const rows = await this.read<{ type: string }>(
      `SELECT DISTINCT type FROM ${this.t.S}.notes WHERE vault = $1 ORDER BY type`,
      [this.t.vault],
    );
    return rows.map((r) => r.type);
  }

  async create(input: NewNote): Promise<Note> {
    const type = assertTypeName(input.type ?? this.deps.defaultType, 'type');
    const id = `${type}/${slugify(input.slug ?? input.title, NOTE_SLUG)}.md`;
    const now = this.stamp();
    const row = rowOf({
      id,
      type,
      title: input.title,
      content: input.content,
      metadata: input.metadata ?? {},
      // As in a file's frontmatter, tags given in the metadata are the note's tags.
      tags: stringList(input.metadata?.tags) ?? input.tags ?? [],
      created: now,
      updated: now,
    });
    await this.write(async (client) => {
      if (!(await insertRow(client, this.t, row)))
        throw new ConflictError(`A note with id "${id}" already exists: choose another title or slug.`, { id });
    });
    return noteOf(row, this.deps.root);
  }

  async update(id: string, change: NoteChange | NoteEdit, expectedHash: string): Promise<Note> {
    return this.write((client) => this.updateIn(client, this.normalizeId(id), change, expectedHash));
  }

  async updateMany(items: readonly NoteUpdate[]): Promise<Array<PromiseSettledResult<Note>>> {
    if (items.length === 0) return [];
    const ids = items.map((item) => this.normalizeId(item.id));
    return this.write(async (client) => {
      // Rows locked in one order, so two batches over the same notes never deadlock.
      await client.query(
        `SELECT id FROM ${this.t.S}.notes WHERE vault = $1 AND id = ANY($2::text[]) ORDER BY id FOR UPDATE`,
        [this.t.vault, [...new Set(ids)].sort()],
      );
      const results: Array<PromiseSettledResult<Note>> = [];
      for (const [k, item] of items.entries()) {
        await client.query('SAVEPOINT item');
        try {
          const note = await this.updateIn(client, ids[k]!, item.change, item.expectedHash);
          await client.query('RELEASE SAVEPOINT item');
          results.push({ status: 'fulfilled', value: note });
        } catch (err) {
          await client.query('ROLLBACK TO SAVEPOINT item');
          results.push({ status: 'rejected', reason: storeError(err, this.deps.url, true) });
        }
      }
      return results;
    });
  }

  async delete(id: string, expectedHash?: string): Promise<Note> {
    const key = this.normalizeId(id);
    return this.write(async (client) => {
      const current = await this.locked(client, key);
      if (expectedHash !== undefined && current.content_hash !== expectedHash)
        throw new ContentHashMismatchError(current.content_hash, expectedHash, { id: key });
      await deleteRow(client, this.t, current);
      return noteOf(current, this.deps.root);
    });
  }

  async move(id: string, newType: string, expectedHash: string): Promise<Note> {
    const key = this.normalizeId(id);
    const type = assertTypeName(newType, 'type');
    return this.write(async (client) => {
      const current = await this.locked(client, key);
      if (current.content_hash !== expectedHash)
        throw new ContentHashMismatchError(current.content_hash, expectedHash, { id: key });
      const target = `${type}/${key.split('/').at(-1)}`;
      const note = noteOf(current, this.deps.root);
      const row = rowOf({ ...note, id: target, type, updated: this.stamp() });
      if (target === key || !(await insertRow(client, this.t, row)))
        throw new ConflictError(`A note "${target}" already exists: rename one of them first.`, { id: target });
      await deleteRow(client, this.t, current);
      return noteOf(row, this.deps.root);
    });
  }

  /** The note's markdown as stored (what its hash covers), or undefined when there is no such note. */
  async textOf(id: string): Promise<string | undefined> {
    const rows = await this.read<{ text: string }>(`SELECT text FROM ${this.t.S}.notes WHERE vault = $1 AND id = $2`, [
      this.t.vault,
      this.normalizeId(id),
    ]);
    return rows[0]?.text;
  }

  watch(listener: (change: ExternalChange) => void): () => void {
    return this.feed.subscribe(listener);
  }

  async close(): Promise<void> {
    await this.feed.close();
    await this.deps.pool.end().catch(() => undefined);
    this.deps.onClose();
  }

  /**
   * Stores a note from its markdown text (noteText's form) as it stands: an import, another
   * program's edit, or a raw write through `files`. `expectedHash` ('' for "no such note") makes it
   * a compare-and-swap. Announced on the feed like any write.
   */
  async putText(id: string, text: string, expectedHash?: string): Promise<Note> {
    const key = this.normalizeId(id);
    const type = assertTypeName(key.split('/')[0]!, 'type');
    const row = rowOf({ ...fieldsOfText(key, text, { type, now: this.stamp() }), type }, text);
    return this.write(async (client) => {
      const current = await lockRow(client, this.t, key);
      if (expectedHash !== undefined && (current?.content_hash ?? '') !== expectedHash)
        throw new ContentHashMismatchError(current?.content_hash ?? '', expectedHash, { path: key });
      const written = current
        ? await updateRow(client, this.t, row, current.content_hash, current)
        : await insertRow(client, this.t, row);
      if (!written) throw new ConflictError(`The note "${key}" changed while it was stored: try again.`, { id: key });
      return noteOf(row, this.deps.root);
    });
  }

  private async updateIn(
    client: PgClient,
    id: string,
    change: NoteChange | NoteEdit,
    expectedHash: string,
  ): Promise<Note> {
    const current = await this.locked(client, id);
    if (current.content_hash !== expectedHash)
      throw new ContentHashMismatchError(current.content_hash, expectedHash, { id });
    const note = noteOf(current, this.deps.root);
    const edit = typeof change === 'function' ? await change(structuredClone(note)) : change;
    const row = rowOf({
      id,
      type: current.type,
      title: edit.title ?? note.title,
      content: edit.content ?? note.content,
      metadata: edit.metadata ?? note.metadata,
      tags: edit.tags ?? stringList(edit.metadata?.tags) ?? note.tags,
      created: note.created,
      updated: edit.updated ?? this.stamp(),
    });
    // The row is locked: this only fails if the lock was lost with the connection.
    if (!(await updateRow(client, this.t, row, expectedHash, current)))
      throw new ContentHashMismatchError(current.content_hash, expectedHash, { id });
    return noteOf(row, this.deps.root);
  }

  private async locked(client: PgClient, id: string): Promise<StoredRow> {
    const row = await lockRow(client, this.t, id);
    if (!row) throw new NotFoundError(`Note not found: ${id}`, { identifier: id });
    return row;
  }

  private async read<R>(sql: string, values: unknown[]): Promise<R[]> {
    try {
      return (await readQuery<R>(this.deps.pool, sql, values)).rows;
    } catch (err) {
      throw storeError(err, this.deps.url);
    }
  }

  private async write<T>(run: (client: PgClient) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await inTransaction(this.deps.pool, run);
      } catch (err) {
        const code = (err as { code?: unknown }).code;
        if (attempt < 3 && typeof code === 'string' && RETRY_SQLSTATE.has(code)) continue;
        throw storeError(err, this.deps.url, true);
      }
    }
  }

  /** ISO times that strictly increase within this process, so `updated` orders its writes. */
  private stamp(): string {
    this.lastStamp = Math.max(Date.now(), this.lastStamp + 1);
    return new Date(this.lastStamp).toISOString();
  }
}
