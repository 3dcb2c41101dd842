/**
 * The index schema: seed 000's tables (`notes`, `note_metadata`, `notes_fts`) so its SQL
 * examples run as written, plus bookkeeping columns for incremental start-up. The schema
 * version lives in `PRAGMA user_version`; each migration moves it forward by one.
 */
export const MIGRATIONS: readonly string[] = [
  // 1: seed 000's schema; diacritics folded. notes_fts is written by IndexDb next to each row
  // change (not by triggers, which made a cold index 2.5× slower).
  `
  CREATE TABLE notes (
    id TEXT PRIMARY KEY,
    title TEXT NOT NULL,
    content TEXT,
    type TEXT NOT NULL,
    filename TEXT NOT NULL,
    path TEXT NOT NULL,
    created DATETIME NOT NULL,
    updated DATETIME NOT NULL,
    size INTEGER,
    content_hash TEXT NOT NULL,
    mtime_ms REAL NOT NULL,
    tags_json TEXT NOT NULL DEFAULT '[]',
    metadata_json TEXT NOT NULL DEFAULT '{}'
  );
  CREATE TABLE note_metadata (
    note_id TEXT,
    key TEXT,
    value TEXT,
    value_type TEXT,
    FOREIGN KEY (note_id) REFERENCES notes(id)
  );
  CREATE VIRTUAL TABLE notes_fts USING fts5(
    id UNINDEXED, title, content, type,
    content = 'notes', content_rowid = 'rowid',
    tokenize = 'unicode61 remove_diacritics 2'
  );
  CREATE INDEX idx_notes_type ON notes(type);
  CREATE INDEX idx_notes_updated ON notes(updated);
  CREATE INDEX idx_metadata_key_value ON note_metadata(key, value);
  CREATE INDEX idx_metadata_note ON note_metadata(note_id);
  CREATE TABLE nk_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  `,
  // 2: start-up compares every file's size and mtime with the index; a covering index lets it
  // read just those columns instead of walking rows that carry each note's whole content.
  `
  CREATE INDEX idx_notes_file_state ON notes(id, size, mtime_ms, content_hash);
  `,
  // 3: the files digest (file-digest.ts) is kept by every row change from here on; a version
  // that does not keep it must not write to this index, so the schema moves forward. The digest
  // itself is computed from the rows on first open (IndexDb.ensureFilesDigest).
  `
  DELETE FROM nk_meta WHERE key = 'files_digest';
  `,
  // 4 (decision 026): the full-text index holds letter-folded title and content
  // (toolkit/search/fold-letters.ts: ł → l, ø → o, ß → ss, …), which unicode61 alone leaves apart,
  // and indexes only title and content (`type` was indexed words no query asked for, and the
  // column filter that kept it out doubled the cost of every match). nk_title_keys finds a note by
  // its exact title in one seek. Both are refilled from the rows in place, no file read;
  // nk_fold and nk_title_key are registered on every connection that migrates.
  `
  DROP TABLE notes_fts;
  CREATE VIRTUAL TABLE notes_fts USING fts5(
    id UNINDEXED, title, content, type UNINDEXED,
    content = 'notes', content_rowid = 'rowid',
    tokenize = 'unicode61 remove_diacritics 2'
  );
  INSERT INTO notes_fts(rowid, id, title, content, type) SELECT rowid, id, nk_fold(title), nk_fold(content), type FROM notes;
  CREATE TABLE nk_title_keys (note_rowid INTEGER PRIMARY KEY, key TEXT NOT NULL);
  CREATE INDEX idx_nk_title_keys ON nk_title_keys(key);
  INSERT INTO nk_title_keys(note_rowid, key) SELECT rowid, nk_title_key(title) FROM notes;
  `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;
