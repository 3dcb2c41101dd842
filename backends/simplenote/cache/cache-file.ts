/**
 * The cache's sql.js database and its file. sql.js keeps the database in memory; the file is
 * rewritten whole, atomically (temp file, fsync, rename), shortly after writes and at close. A
 * missing, unreadable, corrupt, older or newer file is never an error: the cache starts empty
 * and the caller rebuilds it by a full sync (the cache holds nothing Simperium does not). A file
 * of a version listed in UPGRADES is brought forward in place instead, from its own rows.
 */
import fs from 'node:fs';
import path from 'node:path';
import initSqlJs, { type Database, type SqlJsStatic } from 'sql.js';
import type { Logger } from '../../../kernel/logger.js';
import { writeFileAtomic } from '../../../toolkit/files/atomic-write.js';
import { refillSearchRows } from './note-cache.js';

/** Bump on any change to SCHEMA or to what notes_fts holds: a file at another version is rebuilt (or upgraded). */
export const CACHE_SCHEMA_VERSION = 3;

/**
 * From a version to the next, in place. 1 → 2 (decision 026): notes_fts holds letter-folded
 * words (ł → l, ß → ss, …), refilled from the notes rows; the sync cursor is kept, no sync.
 */
const UPGRADES: Readonly<Record<number, (db: Database) => void>> = {
  1: (db) => refillSearchRows(db),
  // 2 → 3: the words stemmed (stem.ts), refilled the same way.
  2: (db) => refillSearchRows(db),
};

const SCHEMA = `
CREATE TABLE notes (
  id TEXT PRIMARY KEY NOT NULL,
  title TEXT NOT NULL,
  text TEXT NOT NULL,
  tags TEXT NOT NULL DEFAULT '[]',
  created_at REAL NOT NULL,
  modified_at REAL NOT NULL,
  local_version INTEGER NOT NULL DEFAULT 1,
  server_version INTEGER,
  trash INTEGER NOT NULL DEFAULT 0,
  sync_deleted INTEGER NOT NULL DEFAULT 0,
  object TEXT NOT NULL,
  content_hash TEXT NOT NULL
);
CREATE INDEX notes_modified ON notes(modified_at);
CREATE VIRTUAL TABLE notes_fts USING fts4(title, text, tags, tokenize=unicode61 "remove_diacritics=1");
CREATE TABLE sync_metadata (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
PRAGMA user_version = ${CACHE_SCHEMA_VERSION};
`;

let sqlJs: Promise<SqlJsStatic> | undefined;

export interface OpenedCache {
  db: Database;
  /** Why the file was not used as it was (absent, corrupt, schema), for the log; undefined when it was. */
  rebuilt?: string;
}

export async function openCacheDatabase(file: string, logger: Logger): Promise<OpenedCache> {
  const SQL = await (sqlJs ??= initSqlJs());
  let bytes: Buffer | undefined;
  try {
    bytes = fs.readFileSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
      logger.info({ file, error: (err as Error).message }, 'simplenote cache unreadable; rebuilding');
  }
  if (bytes) {
    const found = usable(SQL, bytes);
    let problem: string;
    if (typeof found === 'number') {
      const db = new SQL.Database(bytes);
      const failed = upgrade(db, found);
      if (failed === undefined) {
        if (found < CACHE_SCHEMA_VERSION)
          logger.info({ file, from: found, to: CACHE_SCHEMA_VERSION }, 'simplenote cache upgraded in place');
        return { db };
      }
      db.close();
      problem = failed;
    } else problem = found.problem;
    logger.info({ file, problem }, 'simplenote cache not usable; rebuilding by a full sync');
    const db = fresh(SQL);
    return { db, rebuilt: problem };
  }
  return { db: fresh(SQL), rebuilt: 'no cache file' };
}

/** Writes the database to its file atomically; the folder is created when missing. */
export async function saveCacheDatabase(db: Database, file: string): Promise<void> {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await writeFileAtomic(file, db.export());
}

function fresh(SQL: SqlJsStatic): Database {
  const db = new SQL.Database();
  db.exec(SCHEMA);
  return db;
}

/** Runs the upgrades from `version` to this one, each with its version bump in one transaction; undefined, or why one failed. */
function upgrade(db: Database, version: number): string | undefined {
  for (let at = version; at < CACHE_SCHEMA_VERSION; at += 1) {
    db.run('BEGIN');
    try {
      UPGRADES[at]!(db);
      db.run(`PRAGMA user_version = ${at + 1}`);
      db.run('COMMIT');
    } catch (err) {
      db.run('ROLLBACK');
      return `upgrade from schema ${at} failed: ${(err as Error).message}`;
    }
  }
  return undefined;
}

/** The schema version when the bytes hold a cache this code can use (perhaps after UPGRADES), else why not. */
function usable(SQL: SqlJsStatic, bytes: Buffer): number | { problem: string } {
  let db: Database | undefined;
  try {
    db = new SQL.Database(bytes);
    const version = Number(db.exec('PRAGMA user_version')[0]?.values[0]?.[0]);
    if (version > CACHE_SCHEMA_VERSION) return { problem: `schema ${version} is newer than ${CACHE_SCHEMA_VERSION}` };
    for (let at = version; at < CACHE_SCHEMA_VERSION; at += 1) {
      if (!UPGRADES[at]) return { problem: `schema ${version} is older than ${CACHE_SCHEMA_VERSION}` };
    }
    db.exec(
      'SELECT count(*) FROM notes; SELECT count(*) FROM notes_fts; SELECT count(*) FROM sync_metadata; PRAGMA quick_check',
    );
    const check = db.exec('PRAGMA quick_check')[0]?.values[0]?.[0];
    return check === 'ok' ? version : { problem: `integrity check: ${String(check)}` };
  } catch (err) {
    return { problem: `corrupt: ${(err as Error).message}` };
  } finally {
    db?.close();
  }
}
