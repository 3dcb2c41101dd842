/**
 * capability `index-db`: plugins keep their own tables inside the backend's SQLite index (links
 * keeps `note_links` there, so `search_notes_sql` can join them). Synchronous, like the engine.
 */
export type SqlParams = readonly unknown[] | Record<string, unknown>;

export interface IndexDatabase {
  /**
   * The index file's folder. The index may be lost and rebuilt from the notes, so what a plugin
   * cannot rebuild (a note's former names) belongs in a small file here, not in a table.
   */
  readonly folder: string;
  /** Applies `migrations` in order, once each, each in its own transaction, recorded per `owner` (a plugin id). */
  migrate(owner: string, migrations: readonly string[]): void;
  run(sql: string, params?: SqlParams): { changes: number; lastInsertRowid: number | bigint };
  get<R>(sql: string, params?: SqlParams): R | undefined;
  all<R>(sql: string, params?: SqlParams): R[];
  /** Nested calls join the outer transaction. */
  transaction<T>(fn: () => T): T;
  /** Runs after a damaged index was rebuilt: plugin tables are empty again, their data to be derived anew. */
  onRebuilt(listener: () => void): void;
}
