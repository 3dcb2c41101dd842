/**
 * The rows of the local cache: one per Simperium note (the stored object as canonical JSON plus
 * the columns listing and search need), its FTS4 row kept in step, and sync metadata (the
 * cursor). Synchronous: sql.js runs in memory; the owner persists the file. The FTS4 row holds
 * the words letter-folded (`Łódź` as `Lodz`, decision 026); snippets are cut from the object.
 */
import type { Database, SqlValue, Statement } from 'sql.js';
import type { ListQuery, NoteSummary } from '../../../kernel/note.js';
import { foldLetters } from '../../../toolkit/search/fold-letters.js';
import { stemText } from './stem.js';
import { canonicalJson, hashOf, isTrashed, splitText, summaryOf, type NoteObject } from '../note-object.js';

export interface CachedNote {
  id: string;
  version: number;
  object: NoteObject;
  contentHash: string;
}

/** What an upsert did; `held` is the version the row had before (absent for a new row). */
export interface UpsertOutcome {
  kind: 'written' | 'unchanged' | 'older' | 'conflicting';
  held?: number;
}

const ORDER_COLUMNS = { updated: 'modified_at', created: 'created_at', title: 'title' } as const;

export class NoteCache {
  /** Prepared once: sql.js compiles a statement in WASM each time, which dominated a sync. */
  private readonly statements = new Map<string, Statement>();

  constructor(readonly db: Database) {}

  /** Runs `fn` in one transaction: a page of a sync is thousands of statements, each its own commit otherwise. */
  transaction<T>(fn: () => T): T {
    this.db.run('BEGIN');
    try {
      const result = fn();
      this.db.run('COMMIT');
      return result;
    } catch (err) {
      this.db.run('ROLLBACK');
      throw err;
    }
  }

  /**
   * Writes the note's row, but only forward: an object at an older version than the row holds
   * (a delta page computed before our own save and delivered after it, a feed that rewinds), or
   * at the same version with other content (a feed that repeats a version), leaves the row as it
   * is. The outcome says which: `written`, `unchanged` (exactly this object already), `older`,
   * `conflicting`; the caller reports the last two.
   */
  upsert(id: string, version: number, object: NoteObject): UpsertOutcome {
    const contentHash = hashOf(object);
    const existing = this.one('SELECT rowid, content_hash, server_version FROM notes WHERE id = ?', [id]);
    if (existing) {
      const held = Number(existing[2]);
      if (version < held) return { kind: 'older', held };
      if (version === held)
        return existing[1] === contentHash ? { kind: 'unchanged', held } : { kind: 'conflicting', held };
    }
    const text = typeof object.content === 'string' ? object.content : '';
    const { title } = splitText(text);
    const tags = JSON.stringify(Array.isArray(object.tags) ? object.tags : []);
    const numberOf = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : Number(v) || 0);
    const values: SqlValue[] = [
      id,
      title,
      text,
      tags,
      numberOf(object.creationDate),
      numberOf(object.modificationDate),
      version,
      version,
      isTrashed(object) ? 1 : 0,
      canonicalJson(object),
      contentHash,
    ];
    this.run(
      `INSERT INTO notes (id, title, text, tags, created_at, modified_at, local_version, server_version, trash, object, content_hash)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(id) DO UPDATE SET title = excluded.title, text = excluded.text, tags = excluded.tags, created_at = excluded.created_at,
         modified_at = excluded.modified_at, local_version = excluded.local_version, server_version = excluded.server_version,
         trash = excluded.trash, object = excluded.object, content_hash = excluded.content_hash, sync_deleted = 0`,
      values,
    );
    const rowid = this.one('SELECT rowid FROM notes WHERE id = ?', [id])![0] as number;
    this.run('DELETE FROM notes_fts WHERE rowid = ?', [rowid]);
    this.run(
      'INSERT INTO notes_fts (rowid, title, text, tags) VALUES (?, ?, ?, ?)',
      searchRow(rowid, title, text, object.tags),
    );
    return { kind: 'written', ...(existing ? { held: Number(existing[2]) } : {}) };
  }

  remove(id: string): boolean {
    const row = this.one('SELECT rowid FROM notes WHERE id = ?', [id]);
    if (!row) return false;
    this.run('DELETE FROM notes_fts WHERE rowid = ?', [row[0] as number]);
    this.run('DELETE FROM notes WHERE id = ?', [id]);
    return true;
  }

  get(id: string): CachedNote | undefined {
    const row = this.one('SELECT id, server_version, object, content_hash FROM notes WHERE id = ?', [id]);
    return row && rowToCached(row);
  }

  list(query: ListQuery = {}): NoteSummary[] {
    if (query.type !== undefined) return []; // Simplenote notes have no types
    const column = ORDER_COLUMNS[query.orderBy ?? 'updated'];
    const direction = query.direction === 'asc' ? 'ASC' : 'DESC';
    const limit = query.limit ?? -1;
    const rows = this.all(
      `SELECT id, server_version, object, content_hash FROM notes ORDER BY ${column} ${direction}, id ${direction} LIMIT ? OFFSET ?`,
      [limit, query.offset ?? 0],
    );
    return rows.map((row) => {
      const cached = rowToCached(row);
      return summaryOf(cached.id, cached.version, cached.object, cached.contentHash);
    });
  }

  count(query: Pick<ListQuery, 'type'> = {}): number {
    if (query.type !== undefined) return 0;
    return Number(this.one('SELECT count(*) FROM notes', [])![0]);
  }

  trashedCount(): number {
    return Number(this.one('SELECT count(*) FROM notes WHERE trash = 1', [])![0]);
  }

  /** Drops every note and all sync metadata (a reset; a full sync refills it). */
  clear(): void {
    this.run('DELETE FROM notes_fts', []);
    this.run('DELETE FROM notes', []);
    this.run('DELETE FROM sync_metadata', []);
  }

  ids(): string[] {
    return this.all('SELECT id FROM notes').map((row) => row[0] as string);
  }

  meta(key: string): string | undefined {
    const row = this.one('SELECT value FROM sync_metadata WHERE key = ?', [key]);
    return row ? (row[0] as string) : undefined;
  }

  setMeta(key: string, value: string | undefined): void {
    if (value === undefined) this.run('DELETE FROM sync_metadata WHERE key = ?', [key]);
    else
      this.run(
        'INSERT INTO sync_metadata (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
        [key, value],
      );
  }

  all(sql: string, params: SqlValue[] = []): SqlValue[][] {
    const statement = this.prepared(sql);
    try {
      statement.bind(params);
      const rows: SqlValue[][] = [];
      while (statement.step()) rows.push(statement.get());
      return rows;
    } finally {
      statement.reset();
    }
  }

  /** Runs a statement that returns no rows. */
  run(sql: string, params: SqlValue[]): void {
    const statement = this.prepared(sql);
    try {
      statement.run(params);
    } finally {
      statement.reset();
    }
  }

  /** Frees the prepared statements (the database itself belongs to the caller). */
  release(): void {
    for (const statement of this.statements.values()) statement.free();
    this.statements.clear();
  }

  private prepared(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) this.statements.set(sql, (statement = this.db.prepare(sql)));
    return statement;
  }

  private one(sql: string, params: SqlValue[]): SqlValue[] | undefined {
    return this.all(sql, params)[0];
  }
}

function rowToCached(row: SqlValue[]): CachedNote {
  return {
    id: row[0] as string,
    version: Number(row[1]),
    object: JSON.parse(row[2] as string) as NoteObject,
    contentHash: row[3] as string,
  };
}

function tagsText(tags: unknown): string {
  return Array.isArray(tags) ? tags.filter((t) => typeof t === 'string').join(' ') : '';
}

/** A note's notes_fts values: title, text and tags letter-folded and stemmed (unicode61 folds case and accents). */
function searchRow(rowid: number, title: string, text: string, tags: unknown): SqlValue[] {
  return [rowid, stemText(foldLetters(title)), stemText(foldLetters(text)), stemText(foldLetters(tagsText(tags)))];
}

/** Refills notes_fts from the notes rows (a cache whose index held other words: as written, unstemmed). */
export function refillSearchRows(db: Database): void {
  db.run('DELETE FROM notes_fts');
  const insert = db.prepare('INSERT INTO notes_fts (rowid, title, text, tags) VALUES (?, ?, ?, ?)');
  const rows = db.prepare('SELECT rowid, title, text, tags FROM notes');
  try {
    while (rows.step()) {
      const [rowid, title, text, tags] = rows.get();
      insert.run(searchRow(Number(rowid), String(title), String(text), JSON.parse(String(tags)) as unknown));
    }
  } finally {
    rows.free();
    insert.free();
  }
}
