/**
 * capability `index-db`: plugins may keep their own tables inside the backend's SQLite index
 * (links keeps seed 000's `note_links` / `external_links` there, so `search_notes_sql` can join
 * them). The surface is deliberately small and synchronous, like the engine under it.
 */
export type SqlParams = readonly unknown[] | Record<string, unknown>;

export interface IndexDatabase {
  /**
   * The folder of the index file (inside the vault's metadata folder). What a plugin cannot
   * rebuild from the note files (a note's former names) belongs in a small file here: the index
   * itself may be lost and rebuilt.
   */
  readonly folder: string;
  /**
   * Applies `migrations` in order, once each, recording progress under `owner` (a plugin id).
   * Each migration runs in its own transaction.
   */
  migrate(owner: string, migrations: readonly string[]): void;
  run(sql: string, params?: SqlParams): { changes: number; lastInsertRowid: number | bigint };
  get<R>(sql: string, params?: SqlParams): R | undefined;
  all<R>(sql: string, params?: SqlParams): R[];
  /** Runs `fn` in one transaction (nested calls join the outer one). */
  transaction<T>(fn: () => T): T;
  /**
   * `listener` runs after the index was found damaged, emptied and rebuilt from the note files:
   * plugin tables are recreated empty, so derived data (links, tags) must be extracted again.
   */
  onRebuilt(listener: () => void): void;
}
