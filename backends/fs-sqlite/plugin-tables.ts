/**
 * fs-sqlite's `index-db` capability: plugin-owned tables in the same SQLite file, so one
 * read-only SQL query can join notes with links, tags, ... Statements are prepared once and
 * cached by their text.
 */
import type Database from 'better-sqlite3';
import type { IndexDatabase, SqlParams } from '../../kernel/index-database.js';

/** `afterWrite` runs after each write (the owner's idle-time checkpoint, IndexDb.afterWrite). */
/** With `replayMigrations`: after the index was emptied and rebuilt, every owner's tables are recreated. */
export interface PluginTables extends IndexDatabase {
  replayMigrations(): void;
  /** Tells the owners (onRebuilt) once the notes are back in the rebuilt index. */
  announceRebuilt(): void;
}

export function createIndexDatabase(
  db: Database.Database,
  afterWrite: () => void = () => {},
  folder = '',
): PluginTables {
  const createLedger = () =>
    db.exec('CREATE TABLE IF NOT EXISTS nk_plugin_migrations (owner TEXT PRIMARY KEY, version INTEGER NOT NULL)');
  createLedger();
  const owners = new Map<string, readonly string[]>();
  const rebuilt: Array<() => void> = [];
  const cache = new Map<string, Database.Statement>();
  const statement = (sql: string): Database.Statement => {
    let stmt = cache.get(sql);
    if (!stmt) {
      stmt = db.prepare(sql);
      cache.set(sql, stmt);
    }
    return stmt;
  };
  let current: () => unknown = () => undefined;
  const runner = db.transaction(() => current());
  const bind = (params: SqlParams | undefined): unknown[] =>
    params === undefined ? [] : Array.isArray(params) ? [...params] : [params];
  const tables: PluginTables = {
    folder,
    replayMigrations() {
      createLedger();
      for (const [owner, migrations] of owners) tables.migrate(owner, migrations);
    },
    announceRebuilt() {
      for (const listener of rebuilt) listener();
    },
    onRebuilt(listener) {
      rebuilt.push(listener);
    },
    migrate(owner, migrations) {
      owners.set(owner, migrations);
      // One step per IMMEDIATE transaction that reads the version under the write lock: two
      // processes opening one vault together do not both run a step.
      const step = db.transaction((): boolean => {
        const row = db.prepare('SELECT version FROM nk_plugin_migrations WHERE owner = ?').get(owner) as
          | { version: number }
          | undefined;
        const v = row?.version ?? 0;
        if (v >= migrations.length) return false;
        db.exec(migrations[v] ?? '');
        db.prepare(
          'INSERT INTO nk_plugin_migrations (owner, version) VALUES (?, ?) ON CONFLICT(owner) DO UPDATE SET version = excluded.version',
        ).run(owner, v + 1);
        return true;
      });
      while (step.immediate()) {
        // until this owner's tables are current
      }
    },
    run: (sql, params) => {
      const result = statement(sql).run(...bind(params));
      if (!db.inTransaction) afterWrite();
      return result;
    },
    get: <R>(sql: string, params?: SqlParams) => statement(sql).get(...bind(params)) as R | undefined,
    all: <R>(sql: string, params?: SqlParams) => statement(sql).all(...bind(params)) as R[],
    // IMMEDIATE for the reason IndexDb.transaction gives. One better-sqlite3 wrapper serves
    // every call (a nested call becomes a savepoint, as before): making a wrapper per call cost
    // ~10 µs, a second of a 100,000-note first build where tags write each note in its own.
    transaction: <T>(fn: () => T): T => {
      const outer = current;
      current = fn;
      try {
        return runner.immediate() as T;
      } finally {
        current = outer;
        afterWrite();
      }
    },
  };
  return tables;
}
