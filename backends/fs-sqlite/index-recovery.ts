/**
 * Self-healing of the index. The open-time checks (schema, vault root) cannot see a damaged page
 * deep in a b-tree: SQLite reports it only when a query touches that page, as "database disk
 * image is malformed", again at every restart. So every statement on the index connection is
 * watched (`watchConnection`); a corruption error triggers `PRAGMA quick_check`, and a failed
 * check copies the file aside and empties it in place (`wipeInPlace`) to be rebuilt from the
 * files. In place, on the same connection: the store, search and plugin tables hold prepared
 * statements on it, and SQLite re-prepares them against the new schema by itself.
 */
import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { driverLocation } from '../../toolkit/sqlite-driver.js';

/** SQLITE_CORRUPT*, SQLITE_NOTADB, and a short read (the file was truncated under us). */
export function isCorruptionError(err: unknown): boolean {
  const code = (err as { code?: unknown } | undefined)?.code;
  if (typeof code === 'string' && /^SQLITE_(CORRUPT|NOTADB|IOERR_SHORT_READ)/.test(code)) return true;
  return err instanceof Error && /database disk image is malformed|file is not a database/.test(err.message);
}

/** What quick_check reports, or [] when the file is sound. A check that cannot run is a failure too. */
export function quickCheck(db: Database.Database): string[] {
  try {
    const rows = db.pragma('quick_check(20)', { simple: false }) as Array<{ quick_check: string }>;
    const problems = rows.map((r) => r.quick_check).filter((line) => line !== 'ok');
    return problems;
  } catch (err) {
    return [(err as Error).message];
  }
}

// A worker of its own: quick_check reads every page (~150-200 ms at 10,000 notes), which would
// otherwise hold the event loop at every start.
const CHECK_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
let problems;
try {
  const db = new Database(workerData.file, { readonly: true, fileMustExist: true, ...(workerData.binding ? { nativeBinding: workerData.binding } : {}) });
  try {
    problems = db.pragma('quick_check(20)').map((r) => r.quick_check).filter((line) => line !== 'ok');
  } finally {
    db.close();
  }
} catch (err) {
  problems = /malformed|not a database/.test(String(err && err.message)) || /^SQLITE_(CORRUPT|NOTADB)/.test(String(err && err.code)) ? [String(err.message)] : [];
}
parentPort.postMessage(problems);
`;

/** quick_check on a read-only connection in a worker thread; [] when sound (or when it cannot tell). */
export function quickCheckOffThread(file: string): Promise<string[]> {
  return new Promise((resolve) => {
    const worker = new Worker(CHECK_WORKER, { eval: true, workerData: { file, ...driverLocation() } });
    worker.once('message', (problems: string[]) => resolve(problems));
    worker.once('error', () => resolve([]));
    worker.once('exit', () => resolve([]));
  });
}

/**
 * Keeps a copy of the damaged file (for a post-mortem), then empties the database in place:
 * the schema table is cleared and VACUUM writes a fresh, empty file, reading no damaged page.
 * Returns where the copy went (undefined when it could not be made).
 */
export function wipeInPlace(db: Database.Database, file: string): string | undefined {
  const aside = `${file}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  let kept: string | undefined;
  try {
    fs.copyFileSync(file, aside);
    if (fs.existsSync(`${file}-wal`)) fs.copyFileSync(`${file}-wal`, `${aside}-wal`);
    kept = aside;
  } catch {
    // a copy is a courtesy; the rebuild must happen regardless
  }
  db.unsafeMode(true);
  try {
    db.pragma('writable_schema = 1');
    db.exec('DELETE FROM sqlite_schema');
    db.pragma('writable_schema = 0');
    db.exec('VACUUM');
    db.pragma('user_version = 0');
  } finally {
    db.unsafeMode(false);
  }
  return kept;
}

const STATEMENT_CALLS = new Set(['run', 'get', 'all', 'iterate']);
const STATEMENT_CHAINS = new Set(['pluck', 'raw', 'expand', 'safeIntegers', 'bind']);

/**
 * The connection, with every statement, exec and pragma reporting corruption errors to
 * `onCorruption` (which must not throw) before they propagate as before.
 */
export function watchConnection(db: Database.Database, onCorruption: (err: unknown) => void): Database.Database {
  const watched =
    <A extends unknown[], R>(fn: (...args: A) => R) =>
    (...args: A): R => {
      try {
        return fn(...args);
      } catch (err) {
        if (isCorruptionError(err)) onCorruption(err);
        throw err;
      }
    };
  // Each proxy keeps the wrapper it made for a method: statements run ~2 million times in a
  // 100,000-note first build, and binding anew on every call was a quarter second of it.
  const watchStatement = (stmt: Database.Statement): Database.Statement => {
    const made = new Map<PropertyKey, unknown>();
    const proxy: Database.Statement = new Proxy(stmt, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target) as unknown;
        if (typeof value !== 'function') return value;
        let wrapper = made.get(prop);
        if (wrapper === undefined) {
          const bound = (value as (...a: unknown[]) => unknown).bind(target);
          if (STATEMENT_CALLS.has(prop as string)) wrapper = watched(bound);
          else if (STATEMENT_CHAINS.has(prop as string)) {
            wrapper = (...a: unknown[]) => {
              const result = bound(...a);
              return result === target ? proxy : result;
            };
          } else wrapper = bound;
          made.set(prop, wrapper);
        }
        return wrapper;
      },
    });
    return proxy;
  };
  const made = new Map<PropertyKey, unknown>();
  return new Proxy(db, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (typeof value !== 'function') return value;
      let wrapper = made.get(prop);
      if (wrapper === undefined) {
        const bound = (value as (...a: unknown[]) => unknown).bind(target);
        if (prop === 'prepare') wrapper = (sql: string) => watchStatement(watched(bound)(sql) as Database.Statement);
        else if (prop === 'exec' || prop === 'pragma') wrapper = watched(bound);
        else wrapper = bound;
        made.set(prop, wrapper);
      }
      return wrapper;
    },
  });
}
