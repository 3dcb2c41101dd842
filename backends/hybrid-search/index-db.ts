/**
 * The hybrid index's SQLite file: notes (the hash reconcile compares), chunks, an FTS5 table over
 * the chunks, and vectors keyed by the hash of the text they embed — so a chunk that did not
 * change keeps its vector through any edit of its note. `meta` records the embedder; vectors from
 * another embedder (or dimension) are dropped at open and the next reconcile re-embeds.
 *
 * The FTS5 table indexes letter-folded words (`Łódź` as `Lodz`, decision 026) and reads its
 * text from `chunk_texts` (the chunks as written, with their note's title), so snippets show
 * the text as written: the folded text splits into the same tokens at the same positions.
 * Rows are added and deleted with their folded values (`ftsValues`), never by a plain DELETE.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { foldLetters } from '../../toolkit/search/fold-letters.js';
import { openDatabase } from '../../toolkit/sqlite-driver.js';
import type { FaultReporter } from '../../kernel/faults.js';
import { isEnvironmentFault, openFault } from '../../toolkit/files/file-faults.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS notes (id TEXT PRIMARY KEY, title TEXT NOT NULL, type TEXT, updated TEXT NOT NULL, content_hash TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS chunks (id INTEGER PRIMARY KEY, note_id TEXT NOT NULL, seq INTEGER NOT NULL, hash TEXT NOT NULL, heading TEXT NOT NULL, text TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS chunks_by_note ON chunks (note_id);
CREATE INDEX IF NOT EXISTS chunks_by_hash ON chunks (hash);
CREATE TABLE IF NOT EXISTS vectors (hash TEXT PRIMARY KEY, vector BLOB NOT NULL);
`;

/**
 * What `meta.keywords` says the FTS table holds. Absent: the words as written, in a table that
 * kept its own copy of the text (before letter folding); it is rebuilt from the chunks at open.
 */
const KEYWORDS = 'letter-folded-porter-1';

const FOLDED_FTS = `
DROP TABLE IF EXISTS chunks_fts;
CREATE VIEW IF NOT EXISTS chunk_texts AS SELECT c.id AS id, n.title AS title, c.heading AS heading, c.text AS text FROM chunks c JOIN notes n ON n.id = c.note_id;
CREATE VIRTUAL TABLE chunks_fts USING fts5 (title, heading, text, content = 'chunk_texts', content_rowid = 'id', tokenize = 'porter unicode61 remove_diacritics 2');
INSERT INTO chunks_fts (rowid, title, heading, text) SELECT id, nk_fold(title), nk_fold(heading), nk_fold(text) FROM chunk_texts;
`;

export interface NoteRow {
  id: string;
  title: string;
  type: string | null;
  updated: string;
  content_hash: string;
}

export interface ChunkRow {
  id: number;
  note_id: string;
  hash: string;
  heading: string;
  text: string;
}

/** Opens (or creates) the index at `file` (`:memory:` for none) for `embedderKey` (`id/dim`). */
export function openIndexDb(file: string, embedderKey: string): Database.Database {
  const db = openDatabase(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(SCHEMA);
  const meta = (key: string) =>
    db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE key = ?').get(key)?.value;
  const setMeta = db.prepare<[string, string]>('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)');
  // A file SQLite may only read fails at its first write: ask now, writing nothing (rolled back).
  db.exec('BEGIN IMMEDIATE');
  try {
    setMeta.run('write_probe', '');
  } finally {
    db.exec('ROLLBACK');
  }
  if (meta('keywords') !== KEYWORDS) {
    // Keywords again from the stored passages, in place: no note read, no vector touched.
    db.function('nk_fold', { deterministic: true }, (text: unknown) =>
      typeof text === 'string' ? foldLetters(text) : text,
    );
    db.transaction(() => {
      db.exec(FOLDED_FTS);
      setMeta.run('keywords', KEYWORDS);
    })();
  }
  if (meta('embedder') !== embedderKey) {
    // Vectors from two models are not comparable: forget every note, so reconcile rebuilds all.
    db.transaction(() => {
      db.exec(
        "DELETE FROM vectors; DELETE FROM chunks; INSERT INTO chunks_fts (chunks_fts) VALUES ('delete-all'); DELETE FROM notes;",
      );
      setMeta.run('embedder', embedderKey);
    })();
  }
  return db;
}

/** A chunk's FTS values (title, heading, text) as the index holds them: letter-folded. */
export function ftsValues(title: string, heading: string, text: string): [string, string, string] {
  return [foldLetters(title), foldLetters(heading), foldLetters(text)];
}

export function vectorToBlob(vector: Float32Array): Buffer {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);
}

export function blobToVector(blob: Buffer): Float32Array {
  // Copied: the Buffer may share a pool whose offset is not 4-byte aligned.
  const copy = new Float32Array(blob.byteLength / 4);
  new Uint8Array(copy.buffer).set(blob);
  return copy;
}

/**
 * Opens a vault's index at `<folder>/<metaDir>/<name>` (the folder made), or in memory without a
 * folder — and in memory too when the folder cannot hold it (a full disk, no permission, a
 * read-only file system): rebuilt from the notes at every start meanwhile, told as a fault.
 */
export async function openInVault<T>(
  ctx: { folder?: string; faults?: FaultReporter },
  metaDir: string,
  name: string,
  open: (file: string) => T,
): Promise<T> {
  if (ctx.folder === undefined) return open(':memory:');
  const file = path.join(ctx.folder, metaDir, name);
  try {
    await fs.mkdir(path.dirname(file), { recursive: true });
    return open(file);
  } catch (err) {
    const fault = openFault(err, file, ctx.folder);
    if (!isEnvironmentFault(fault)) throw err;
    ctx.faults?.report(
      'search index file',
      fault,
      'An in-memory index, rebuilt from the notes at every start, serves meanwhile; the file is left as it is.',
    );
    return open(':memory:');
  }
}
