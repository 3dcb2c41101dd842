/**
 * Opening the index tells damage from faults (decision 038). Only proven damage — SQLite's
 * corruption codes, a file that is no database, a schema from a newer notekernel — moves the
 * file aside, once, to be rebuilt from the files. A full disk, a folder it may not write, a
 * read-only file system or a busy lock leave the file as it is: a stand-in index under the
 * system's temporary folder, rebuilt from the files, serves meanwhile, and the fault is told.
 * A native addon that does not load is reported as that, with the fix.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { BackendUnavailableError, NotekernelError } from '../../kernel/errors.js';
import { openFault } from '../../toolkit/files/file-faults.js';
import type { Logger } from '../../kernel/logger.js';
import { foldLetters } from '../../toolkit/search/fold-letters.js';
import { openDatabase } from '../../toolkit/sqlite-driver.js';
import { isCorruptionError } from './index-recovery.js';
import { MIGRATIONS, SCHEMA_VERSION } from './schema.js';
import { titleKey } from './title-key.js';

export interface OpenedIndex {
  db: Database.Database;
  /** The file open: the vault's index, or the stand-in's. */
  file: string;
  /** Why the vault's own index file is not in use (the stand-in is). */
  fault?: NotekernelError;
  /** The stand-in's folder, removed at close. */
  standIn?: string;
}

class NewerSchemaError extends Error {}

/** Opens tried while another process holds the index's write lock past SQLite's busy timeout (5 s each). */
const BUSY_ATTEMPTS = 3;

export function openIndex(file: string, vaultRoot: string, logger: Logger): OpenedIndex {
  let failure: unknown;
  for (let attempt = 1; attempt <= BUSY_ATTEMPTS; attempt++) {
    try {
      return { db: openOwn(file, vaultRoot, logger), file };
    } catch (err) {
      failure = err;
      // Another process migrating or writing a large batch: busy, not broken.
      if (!/^SQLITE_(BUSY|LOCKED)/.test(String((err as { code?: unknown }).code))) break;
      logger.warn({ attempt }, 'the index is locked by another process; trying again');
    }
  }
  if (isDriverFailure(failure)) {
    const reason = firstLine(failure);
    throw new BackendUnavailableError(
      `The SQLite driver (better-sqlite3) does not load: ${reason}. Run \`npm rebuild better-sqlite3\` for this Node (${process.version}); the index is left as it is.`,
      { reason },
      failure,
    );
  }
  if (isDamage(failure)) {
    logger.warn(
      { err: failure, file },
      'the index is unreadable (damaged) or from a newer schema; moving it aside and rebuilding it from the files',
    );
    try {
      moveAside(file);
      return { db: createFresh(file, vaultRoot), file };
    } catch (err) {
      failure = err;
    }
  }
  const fault = openFault(failure, file, vaultRoot);
  logger.warn(
    { err: failure, file },
    `the index cannot be used where it is (${fault.message}); a temporary one, rebuilt from the files, serves meanwhile`,
  );
  return { ...standIn(file, vaultRoot, logger, fault), fault };
}

/** Opens the vault's own index: migrated, and rebuilt when it was built for another folder. */
function openOwn(file: string, vaultRoot: string, logger: Logger): Database.Database {
  const db = openAndMigrate(file);
  try {
    assertWritable(db);
    const root = (
      db.prepare("SELECT value FROM nk_meta WHERE key = 'vault_root'").get() as { value: string } | undefined
    )?.value;
    if (root === undefined) {
      // Two processes opening a fresh vault at once both get here: the first one's row stands.
      db.prepare("INSERT OR IGNORE INTO nk_meta (key, value) VALUES ('vault_root', ?)").run(vaultRoot);
      return db;
    }
    if (root === vaultRoot) return db;
  } catch (err) {
    db.close();
    throw err;
  }
  // A copied or moved vault: its rows name the old folder's paths. Derived data, so it goes
  // (kept aside it would be named as damaged, which it is not, and a vault copied often would
  // gather one stale index per copy).
  logger.info('the index was built where this vault was copied or moved from; rebuilding it from the files');
  db.close();
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
  return createFresh(file, vaultRoot);
}

/** A copy of the vault's index (or a new one) under the system's temporary folder. */
function standIn(file: string, vaultRoot: string, logger: Logger, fault: NotekernelError): Omit<OpenedIndex, 'fault'> {
  let dir: string | undefined;
  try {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'notekernel-index-'));
    const copy = path.join(dir, path.basename(file));
    try {
      // The rows it holds save a full rebuild; the refresh brings them level with the files.
      for (const suffix of ['', '-wal'])
        if (fs.existsSync(file + suffix)) fs.copyFileSync(file + suffix, copy + suffix);
      return { db: openOwn(copy, vaultRoot, logger), file: copy, standIn: dir };
    } catch {
      for (const suffix of ['', '-wal', '-shm']) fs.rmSync(copy + suffix, { force: true });
      return { db: createFresh(copy, vaultRoot), file: copy, standIn: dir };
    }
  } catch (err) {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    throw new NotekernelError(
      fault.code,
      `${fault.message} The temporary folder cannot hold a stand-in index either: ${firstLine(err)}.`,
      fault.details,
      { cause: err },
    );
  }
}

/**
 * SQLite opens a file it may not write read-only, and says so only at the first write. A row
 * written inside a transaction that is rolled back asks now, and writes nothing to the file.
 */
function assertWritable(db: Database.Database): void {
  db.exec('BEGIN IMMEDIATE');
  try {
    db.prepare("INSERT OR REPLACE INTO nk_meta (key, value) VALUES ('write_probe', '')").run();
  } finally {
    db.exec('ROLLBACK');
  }
}

function createFresh(file: string, vaultRoot: string): Database.Database {
  const db = openAndMigrate(file);
  db.prepare("INSERT INTO nk_meta (key, value) VALUES ('vault_root', ?)").run(vaultRoot);
  return db;
}

function openAndMigrate(file: string): Database.Database {
  const db = openDatabase(file);
  try {
    db.pragma('busy_timeout = 5000');
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('cache_size = -65536');
    db.pragma('temp_store = MEMORY');
    applySchema(db);
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

export function applySchema(db: Database.Database): void {
  db.function('nk_fold', { deterministic: true }, (text: unknown) =>
    typeof text === 'string' ? foldLetters(text) : text,
  );
  db.function('nk_title_key', { deterministic: true }, (text: unknown) =>
    typeof text === 'string' ? titleKey(text) : '',
  );
  // Each step reads the version under a write lock (BEGIN IMMEDIATE): of two processes
  // opening a fresh vault together, the second finds the first one's schema, not a race.
  const step = db.transaction((): boolean => {
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > SCHEMA_VERSION)
      throw new NewerSchemaError(`index schema ${version} is newer than this notekernel (${SCHEMA_VERSION})`);
    if (version === SCHEMA_VERSION) return false;
    db.exec(MIGRATIONS[version] ?? '');
    db.pragma(`user_version = ${version + 1}`);
    return true;
  });
  while (step.immediate()) {
    // one migration per transaction until the schema is current
  }
  db.prepare('SELECT COUNT(*) FROM notes').get();
}

function isDamage(err: unknown): boolean {
  return isCorruptionError(err) || err instanceof NewerSchemaError;
}

/** The addon built for another Node, or missing: nothing SQLite can open, whatever the file. */
function isDriverFailure(err: unknown): boolean {
  const { code, message } = err as { code?: unknown; message?: unknown };
  return (
    code === 'ERR_DLOPEN_FAILED' ||
    (typeof message === 'string' && /NODE_MODULE_VERSION|bindings file|better_sqlite3\.node/.test(message))
  );
}

function moveAside(file: string): void {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  for (const suffix of ['', '-wal', '-shm']) {
    if (fs.existsSync(file + suffix)) fs.renameSync(file + suffix, `${file}.corrupt-${stamp}${suffix}`);
  }
}

function firstLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? '';
}
