/**
 * Where tags live: `note_tags` in the backend's SQLite file (capability `index-db`, joinable
 * from `search_notes_sql`) or maps in memory. Each note's row set is replaced whole, with the
 * content hash it was read at, so a restart re-reads only notes whose hash changed.
 */
import type { IndexDatabase } from '../../kernel/index-database.js';
import { secondaryIndexes, type SecondaryIndexes } from '../../toolkit/sqlite-indexes.js';

export interface TagRow {
  note_id: string;
  tag: string;
  tag_key: string;
  source: 'frontmatter' | 'inline';
  line_number: number | null;
}

export interface TagStore {
  hashes(): Map<string, string>;
  /** `fresh`: the note has no rows yet (a first build), so there are none to delete. */
  replace(noteId: string, hash: string, tags: ReadonlyArray<Omit<TagRow, 'note_id'>>, fresh?: boolean): void;
  /** Whether no note was ever stored. */
  empty(): boolean;
  /** Indexes a first build may fill the tables without (SQLite; none in memory). */
  readonly secondaryIndexes?: SecondaryIndexes;
  remove(noteId: string): void;
  tagsOf(noteId: string): TagRow[];
  /** Notes with this tag key (and, when nested, any key below it). */
  notesWith(key: string, nested: boolean): Set<string>;
  /** Every (note, tag) pair, one per note and key. */
  pairs(): Array<{ note_id: string; tag: string; tag_key: string }>;
  /** Bookkeeping of the tag index itself (the store's token at the last complete check). */
  meta(key: string): string | undefined;
  setMeta(key: string, value: string | null): void;
  transaction<T>(fn: () => T): T;
}

const MIGRATIONS = [
  `
  CREATE TABLE note_tags (note_id TEXT NOT NULL, tag TEXT NOT NULL, tag_key TEXT NOT NULL, source TEXT NOT NULL, line_number INTEGER);
  CREATE INDEX idx_note_tags_key ON note_tags(tag_key);
  CREATE INDEX idx_note_tags_note ON note_tags(note_id);
  CREATE TABLE nk_tags_state (note_id TEXT PRIMARY KEY, content_hash TEXT NOT NULL);
  `,
  `CREATE TABLE nk_tags_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);`,
];

/** Created by the first migration; `create` runs at every open. */
const TAG_INDEXES = ['idx_note_tags_key ON note_tags(tag_key)', 'idx_note_tags_note ON note_tags(note_id)'];

export function createSqliteTagStore(db: IndexDatabase, owner: string): TagStore {
  db.migrate(owner, MIGRATIONS);
  const indexes = secondaryIndexes((sql) => db.run(sql), TAG_INDEXES);
  indexes.create();
  return {
    secondaryIndexes: indexes,
    empty: () => db.get('SELECT 1 FROM nk_tags_state LIMIT 1') === undefined,
    hashes: () =>
      new Map(
        db
          .all<{ note_id: string; content_hash: string }>('SELECT note_id, content_hash FROM nk_tags_state')
          .map((r) => [r.note_id, r.content_hash]),
      ),
    replace(noteId, hash, tags, fresh) {
      db.transaction(() => {
        if (!fresh) db.run('DELETE FROM note_tags WHERE note_id = ?', [noteId]);
        for (const t of tags)
          db.run('INSERT INTO note_tags (note_id, tag, tag_key, source, line_number) VALUES (?, ?, ?, ?, ?)', [
            noteId,
            t.tag,
            t.tag_key,
            t.source,
            t.line_number,
          ]);
        db.run(
          'INSERT INTO nk_tags_state (note_id, content_hash) VALUES (?, ?) ON CONFLICT(note_id) DO UPDATE SET content_hash = excluded.content_hash',
          [noteId, hash],
        );
      });
    },
    remove(noteId) {
      db.transaction(() => {
        db.run('DELETE FROM note_tags WHERE note_id = ?', [noteId]);
        db.run('DELETE FROM nk_tags_state WHERE note_id = ?', [noteId]);
      });
    },
    tagsOf: (noteId) =>
      db.all<TagRow>(
        'SELECT note_id, tag, tag_key, source, line_number FROM note_tags WHERE note_id = ? ORDER BY rowid',
        [noteId],
      ),
    notesWith(key, nested) {
      const rows = nested
        ? db.all<{ note_id: string }>(
            'SELECT DISTINCT note_id FROM note_tags WHERE tag_key = ? OR substr(tag_key, 1, ?) = ?',
            [key, key.length + 1, `${key}/`],
          )
        : db.all<{ note_id: string }>('SELECT DISTINCT note_id FROM note_tags WHERE tag_key = ?', [key]);
      return new Set(rows.map((r) => r.note_id));
    },
    pairs: () =>
      db.all<{ note_id: string; tag: string; tag_key: string }>(
        'SELECT note_id, MIN(tag) AS tag, tag_key FROM note_tags GROUP BY note_id, tag_key',
      ),
    meta: (key) => db.get<{ value: string }>('SELECT value FROM nk_tags_meta WHERE key = ?', [key])?.value,
    setMeta(key, value) {
      if (value === null) db.run('DELETE FROM nk_tags_meta WHERE key = ?', [key]);
      else
        db.run(
          'INSERT INTO nk_tags_meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
          [key, value],
        );
    },
    transaction: (fn) => db.transaction(fn),
  };
}

export function createMemoryTagStore(): TagStore {
  const hashes = new Map<string, string>();
  const rows = new Map<string, TagRow[]>();
  const meta = new Map<string, string>();
  return {
    meta: (key) => meta.get(key),
    setMeta: (key, value) => void (value === null ? meta.delete(key) : meta.set(key, value)),
    hashes: () => new Map(hashes),
    empty: () => hashes.size === 0,
    replace(noteId, hash, tags) {
      rows.set(
        noteId,
        tags.map((t) => ({ ...t, note_id: noteId })),
      );
      hashes.set(noteId, hash);
    },
    remove(noteId) {
      rows.delete(noteId);
      hashes.delete(noteId);
    },
    tagsOf: (noteId) => [...(rows.get(noteId) ?? [])],
    notesWith(key, nested) {
      const out = new Set<string>();
      for (const [id, list] of rows)
        if (list.some((t) => t.tag_key === key || (nested && t.tag_key.startsWith(`${key}/`)))) out.add(id);
      return out;
    },
    pairs() {
      const out: Array<{ note_id: string; tag: string; tag_key: string }> = [];
      for (const [id, list] of rows) {
        const seen = new Map<string, string>();
        for (const t of list)
          if (!seen.has(t.tag_key) || t.tag < (seen.get(t.tag_key) as string)) seen.set(t.tag_key, t.tag);
        for (const [tag_key, tag] of seen) out.push({ note_id: id, tag, tag_key });
      }
      return out;
    },
    transaction: (fn) => fn(),
  };
}
