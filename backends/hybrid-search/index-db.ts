/**
 * The hybrid index's SQLite file: notes (the hash reconcile compares), chunks, an FTS5 table over
 * the chunks, and vectors keyed by the hash of the text they embed — so a chunk that did not
 * change keeps its vector through any edit of its note. `meta` records the embedder; vectors from
 * another embedder (or dimension) are dropped at open and the next reconcile re-embeds.
 */
import type Database from 'better-sqlite3';
import { openDatabase } from '../../toolkit/sqlite-driver.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS notes (id TEXT PRIMARY KEY, title TEXT NOT NULL, type TEXT, updated TEXT NOT NULL, content_hash TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS chunks (id INTEGER PRIMARY KEY, note_id TEXT NOT NULL, seq INTEGER NOT NULL, hash TEXT NOT NULL, heading TEXT NOT NULL, text TEXT NOT NULL);
CREATE INDEX IF NOT EXISTS chunks_by_note ON chunks (note_id);
CREATE INDEX IF NOT EXISTS chunks_by_hash ON chunks (hash);
CREATE TABLE IF NOT EXISTS vectors (hash TEXT PRIMARY KEY, vector BLOB NOT NULL);
CREATE VIRTUAL TABLE IF NOT EXISTS chunks_fts USING fts5 (title, heading, text, tokenize = 'unicode61 remove_diacritics 2');
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
  const stored = db.prepare<[], { value: string }>(`SELECT value FROM meta WHERE key = 'embedder'`).get()?.value;
  if (stored !== embedderKey) {
    // Vectors from two models are not comparable: forget every note, so reconcile rebuilds all.
    db.transaction(() => {
      db.exec('DELETE FROM vectors; DELETE FROM chunks; DELETE FROM chunks_fts; DELETE FROM notes;');
      db.prepare(`INSERT OR REPLACE INTO meta (key, value) VALUES ('embedder', ?)`).run(embedderKey);
    })();
  }
  return db;
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
