/**
 * LinkStore on capability `index-db`: seed 000's `note_links` and `external_links`, column for
 * column, beside the backend's `notes` table so one SQL query can join them. Our bookkeeping
 * lives in tables of its own (`nk_links_*`) rather than in extra columns, so the seed's tables
 * stay exactly as the seed documents them. No FOREIGN KEY clauses: links are kept by hooks and
 * may briefly name a note the backend has not indexed yet (or has just dropped); enforced keys
 * would make the backend's own writes fail.
 */
import type { IndexDatabase } from '../../../kernel/index-database.js';
import { secondaryIndexes } from '../../../toolkit/sqlite-indexes.js';
import type {
  ExternalInput,
  ExternalRecord,
  LinkInput,
  LinkRecord,
  LinkStore,
  MoveRecord,
  NoteState,
} from './types.js';

export const LINK_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE IF NOT EXISTS note_links (
    id INTEGER PRIMARY KEY,
    source_note_id TEXT NOT NULL,
    target_note_id TEXT,
    target_title TEXT NOT NULL,
    link_text TEXT,
    line_number INTEGER,
    created DATETIME DEFAULT CURRENT_TIMESTAMP
  );
  CREATE TABLE IF NOT EXISTS external_links (
    id INTEGER PRIMARY KEY,
    note_id TEXT NOT NULL,
    url TEXT NOT NULL,
    title TEXT,
    line_number INTEGER,
    link_type TEXT DEFAULT 'url',
    created DATETIME DEFAULT CURRENT_TIMESTAMP
  );
  CREATE INDEX IF NOT EXISTS idx_note_links_source ON note_links(source_note_id);
  CREATE INDEX IF NOT EXISTS idx_note_links_target ON note_links(target_note_id);
  CREATE INDEX IF NOT EXISTS idx_note_links_target_title ON note_links(target_title);
  CREATE INDEX IF NOT EXISTS idx_external_links_note ON external_links(note_id);
  CREATE INDEX IF NOT EXISTS idx_external_links_url ON external_links(url);
  CREATE TABLE nk_links_state (note_id TEXT PRIMARY KEY, content_hash TEXT NOT NULL, title TEXT NOT NULL, stem TEXT NOT NULL);
  CREATE INDEX idx_nk_links_state_hash ON nk_links_state(content_hash);
  CREATE TABLE nk_links_detail (
    link_id INTEGER PRIMARY KEY, source_note_id TEXT NOT NULL, target_key TEXT NOT NULL, kind TEXT NOT NULL,
    resolved_by TEXT, start_offset INTEGER NOT NULL, end_offset INTEGER NOT NULL
  );
  CREATE INDEX idx_nk_links_detail_key ON nk_links_detail(target_key);
  CREATE INDEX idx_nk_links_detail_source ON nk_links_detail(source_note_id);
  CREATE TABLE nk_links_former (name_key TEXT PRIMARY KEY, note_id TEXT NOT NULL);
  CREATE TABLE nk_links_moves (
    id INTEGER PRIMARY KEY, from_id TEXT NOT NULL, to_id TEXT NOT NULL, from_name TEXT NOT NULL, to_name TEXT NOT NULL, how TEXT NOT NULL,
    detected_at DATETIME DEFAULT CURRENT_TIMESTAMP, repaired_at DATETIME
  );
  `,
  `CREATE TABLE nk_links_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);`,
  // Link keys are letter-folded since decision 026 (`łódź` and `lodz` are one key): every stored
  // key may be stale, so the links are extracted again at the next reconcile. Former names and
  // recorded moves stay (a former name with such letters resolves again once renamed anew).
  `
  DELETE FROM note_links; DELETE FROM external_links; DELETE FROM nk_links_detail; DELETE FROM nk_links_state;
  DELETE FROM nk_links_meta WHERE key = 'snapshot_fingerprint';
  `,
];

/** Every index of the link tables besides their keys (migration 1 created them; `create` runs at every open). */
const LINK_INDEXES = [
  'idx_note_links_source ON note_links(source_note_id)',
  'idx_note_links_target ON note_links(target_note_id)',
  'idx_note_links_target_title ON note_links(target_title)',
  'idx_external_links_note ON external_links(note_id)',
  'idx_external_links_url ON external_links(url)',
  'idx_nk_links_state_hash ON nk_links_state(content_hash)',
  'idx_nk_links_detail_key ON nk_links_detail(target_key)',
  'idx_nk_links_detail_source ON nk_links_detail(source_note_id)',
];

const SELECT_LINK = `SELECT l.id, l.source_note_id, l.target_note_id, l.target_title, l.link_text, l.line_number, l.created,
  d.target_key, d.kind, d.resolved_by, d.start_offset, d.end_offset
  FROM note_links l JOIN nk_links_detail d ON d.link_id = l.id`;

export function createSqliteLinkStore(db: IndexDatabase, owner: string): LinkStore {
  db.migrate(owner, LINK_MIGRATIONS);
  const indexes = secondaryIndexes((sql) => db.run(sql), LINK_INDEXES);
  indexes.create();
  const inList = (values: readonly string[]): string => values.map(() => '?').join(', ');
  return {
    kind: 'index-db',
    secondaryIndexes: indexes,
    transaction: (fn) => db.transaction(fn),
    states() {
      const rows = db.all<NoteState>('SELECT note_id, content_hash, title, stem FROM nk_links_state');
      return new Map(rows.map((r) => [r.note_id, r]));
    },
    state: (noteId) =>
      db.get<NoteState>('SELECT note_id, content_hash, title, stem FROM nk_links_state WHERE note_id = ?', [noteId]),
    statesByHash: (hash) =>
      db.all<NoteState>('SELECT note_id, content_hash, title, stem FROM nk_links_state WHERE content_hash = ?', [hash]),
    replaceNote(state, links, externals, fresh) {
      if (fresh) {
        for (const link of links) insertLink(db, state.note_id, link);
        for (const ext of externals) insertExternal(db, state.note_id, ext);
      } else {
        syncLinks(db, state.note_id, links);
        syncExternals(db, state.note_id, externals);
      }
      db.run(
        `INSERT INTO nk_links_state (note_id, content_hash, title, stem) VALUES (?, ?, ?, ?)
         ON CONFLICT(note_id) DO UPDATE SET content_hash = excluded.content_hash, title = excluded.title, stem = excluded.stem`,
        [state.note_id, state.content_hash, state.title, state.stem],
      );
    },
    removeNote(noteId) {
      deleteOutgoing(db, noteId);
      db.run('DELETE FROM nk_links_state WHERE note_id = ?', [noteId]);
    },
    renameNote(fromId, toId) {
      db.run('UPDATE note_links SET source_note_id = ? WHERE source_note_id = ?', [toId, fromId]);
      db.run('UPDATE nk_links_detail SET source_note_id = ? WHERE source_note_id = ?', [toId, fromId]);
      db.run('UPDATE note_links SET target_note_id = ? WHERE target_note_id = ?', [toId, fromId]);
      db.run('UPDATE external_links SET note_id = ? WHERE note_id = ?', [toId, fromId]);
      db.run('DELETE FROM nk_links_state WHERE note_id = ?', [toId]);
      db.run('UPDATE nk_links_state SET note_id = ? WHERE note_id = ?', [toId, fromId]);
      db.run('UPDATE nk_links_former SET note_id = ? WHERE note_id = ?', [toId, fromId]);
    },
    outgoing: (noteId) =>
      db.all<LinkRecord>(`${SELECT_LINK} WHERE l.source_note_id = ? ORDER BY l.line_number, d.start_offset`, [noteId]),
    incoming: (noteId) =>
      db.all<LinkRecord>(`${SELECT_LINK} WHERE l.target_note_id = ? ORDER BY l.created DESC, l.id DESC`, [noteId]),
    externals: (noteId) =>
      db.all<ExternalRecord>(
        'SELECT id, note_id, url, title, line_number, link_type, created FROM external_links WHERE note_id = ? ORDER BY line_number, id',
        [noteId],
      ),
    broken: () =>
      db.all<LinkRecord>(
        `${SELECT_LINK} WHERE l.target_note_id IS NULL ORDER BY l.source_note_id, l.line_number, d.start_offset`,
      ),
    byKeys: (keys) =>
      keys.length ? db.all<LinkRecord>(`${SELECT_LINK} WHERE d.target_key IN (${inList(keys)})`, [...keys]) : [],
    openLinks: () =>
      db.all<Pick<LinkRecord, 'id' | 'target_key' | 'target_note_id' | 'resolved_by'>>(
        `SELECT d.link_id AS id, d.target_key, l.target_note_id, d.resolved_by FROM nk_links_detail d JOIN note_links l ON l.id = d.link_id
         WHERE d.resolved_by IS NULL OR d.resolved_by IN ('stem', 'former')`,
      ),
    retarget(updates) {
      for (const u of updates) {
        db.run('UPDATE note_links SET target_note_id = ? WHERE id = ?', [u.target, u.id]);
        db.run('UPDATE nk_links_detail SET resolved_by = ? WHERE link_id = ?', [u.by, u.id]);
      }
    },
    edges: () =>
      db.all<{ source: string; target: string }>(
        'SELECT DISTINCT source_note_id AS source, target_note_id AS target FROM note_links WHERE target_note_id IS NOT NULL',
      ),
    externalUrls: () => db.all<{ note_id: string; url: string }>('SELECT note_id, url FROM external_links'),
    counts() {
      const links = db.get<{ n: number }>('SELECT COUNT(*) AS n FROM note_links')?.n ?? 0;
      const externals = db.get<{ n: number }>('SELECT COUNT(*) AS n FROM external_links')?.n ?? 0;
      const notes = db.get<{ n: number }>('SELECT COUNT(*) AS n FROM nk_links_state')?.n ?? 0;
      return { links, externals, notes };
    },
    clear() {
      db.transaction(() => {
        for (const table of ['note_links', 'nk_links_detail', 'external_links', 'nk_links_state', 'nk_links_meta'])
          db.run(`DELETE FROM ${table}`);
      });
    },
    meta: (key) => db.get<{ value: string }>('SELECT value FROM nk_links_meta WHERE key = ?', [key])?.value,
    setMeta(key, value) {
      if (value === null) db.run('DELETE FROM nk_links_meta WHERE key = ?', [key]);
      else
        db.run(
          'INSERT INTO nk_links_meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
          [key, value],
        );
    },
    formers() {
      const rows = db.all<{ name_key: string; note_id: string }>('SELECT name_key, note_id FROM nk_links_former');
      return new Map(rows.map((r) => [r.name_key, r.note_id]));
    },
    setFormer: (key, noteId) =>
      void db.run(
        'INSERT INTO nk_links_former (name_key, note_id) VALUES (?, ?) ON CONFLICT(name_key) DO UPDATE SET note_id = excluded.note_id',
        [key, noteId],
      ),
    dropFormersFor: (noteId) => void db.run('DELETE FROM nk_links_former WHERE note_id = ?', [noteId]),
    dropAllFormers: () => void db.run('DELETE FROM nk_links_former'),
    recordMove: (m) =>
      void db.run('INSERT INTO nk_links_moves (from_id, to_id, from_name, to_name, how) VALUES (?, ?, ?, ?, ?)', [
        m.from_id,
        m.to_id,
        m.from_name,
        m.to_name,
        m.how,
      ]),
    moves: (options = {}) =>
      db.all<MoveRecord>(
        `SELECT id, from_id, to_id, from_name, to_name, how, detected_at, repaired_at FROM nk_links_moves ${options.pending ? 'WHERE repaired_at IS NULL' : ''} ORDER BY id`,
      ),
    markRepaired(ids) {
      if (ids.length)
        db.run(
          `UPDATE nk_links_moves SET repaired_at = CURRENT_TIMESTAMP WHERE id IN (${ids.map(() => '?').join(', ')})`,
          [...ids],
        );
    },
  };
}

/**
 * A rewritten note usually keeps its links and only shifts some offsets or changes one target
 * (a rename rewrote `[[Old]]`): its rows are updated in place, pairing old and new links in
 * document order, and only the columns that changed are written. Rows in indexed columns are
 * not deleted and inserted again (five index entries each); ids and `created` stay the link's
 * own. A different number of links replaces them all.
 */
function syncLinks(db: IndexDatabase, sourceId: string, links: readonly LinkInput[]): void {
  const old = db.all<LinkRecord>(`${SELECT_LINK} WHERE l.source_note_id = ? ORDER BY d.start_offset, l.id`, [sourceId]);
  const stored =
    db.get<{ n: number }>('SELECT COUNT(*) AS n FROM note_links WHERE source_note_id = ?', [sourceId])?.n ?? 0;
  if (old.length !== links.length || stored !== old.length) {
    db.run('DELETE FROM nk_links_detail WHERE source_note_id = ?', [sourceId]);
    db.run('DELETE FROM note_links WHERE source_note_id = ?', [sourceId]);
    for (const link of links) insertLink(db, sourceId, link);
    return;
  }
  const ordered = [...links].sort((a, b) => a.start_offset - b.start_offset);
  ordered.forEach((link, i) => {
    const was = old[i] as LinkRecord;
    if (
      was.target_note_id !== link.target_note_id ||
      was.target_title !== link.target_title ||
      was.link_text !== link.link_text ||
      was.line_number !== link.line_number
    ) {
      db.run(
        'UPDATE note_links SET target_note_id = ?, target_title = ?, link_text = ?, line_number = ? WHERE id = ?',
        [link.target_note_id, link.target_title, link.link_text, link.line_number, was.id],
      );
    }
    if (was.target_key !== link.target_key || was.kind !== link.kind || was.resolved_by !== link.resolved_by) {
      db.run(
        'UPDATE nk_links_detail SET target_key = ?, kind = ?, resolved_by = ?, start_offset = ?, end_offset = ? WHERE link_id = ?',
        [link.target_key, link.kind, link.resolved_by, link.start_offset, link.end_offset, was.id],
      );
    } else if (was.start_offset !== link.start_offset || was.end_offset !== link.end_offset) {
      db.run('UPDATE nk_links_detail SET start_offset = ?, end_offset = ? WHERE link_id = ?', [
        link.start_offset,
        link.end_offset,
        was.id,
      ]);
    }
  });
}

/** As syncLinks, for a note's external links. */
function syncExternals(db: IndexDatabase, noteId: string, externals: readonly ExternalInput[]): void {
  const old = db.all<ExternalRecord>(
    'SELECT id, note_id, url, title, line_number, link_type, created FROM external_links WHERE note_id = ? ORDER BY line_number, id',
    [noteId],
  );
  const ordered = [...externals].sort((a, b) => a.line_number - b.line_number);
  if (old.length !== ordered.length) {
    db.run('DELETE FROM external_links WHERE note_id = ?', [noteId]);
    for (const ext of externals) insertExternal(db, noteId, ext);
    return;
  }
  ordered.forEach((ext, i) => {
    const was = old[i] as ExternalRecord;
    if (
      was.url === ext.url &&
      was.title === ext.title &&
      was.line_number === ext.line_number &&
      was.link_type === ext.link_type
    )
      return;
    db.run('UPDATE external_links SET url = ?, title = ?, line_number = ?, link_type = ? WHERE id = ?', [
      ext.url,
      ext.title,
      ext.line_number,
      ext.link_type,
      was.id,
    ]);
  });
}

function deleteOutgoing(db: IndexDatabase, noteId: string): void {
  db.run('DELETE FROM nk_links_detail WHERE source_note_id = ?', [noteId]);
  db.run('DELETE FROM note_links WHERE source_note_id = ?', [noteId]);
  db.run('DELETE FROM external_links WHERE note_id = ?', [noteId]);
}

function insertLink(db: IndexDatabase, sourceId: string, link: LinkInput): void {
  const { lastInsertRowid } = db.run(
    'INSERT INTO note_links (source_note_id, target_note_id, target_title, link_text, line_number) VALUES (?, ?, ?, ?, ?)',
    [sourceId, link.target_note_id, link.target_title, link.link_text, link.line_number],
  );
  db.run(
    'INSERT INTO nk_links_detail (link_id, source_note_id, target_key, kind, resolved_by, start_offset, end_offset) VALUES (?, ?, ?, ?, ?, ?, ?)',
    [lastInsertRowid, sourceId, link.target_key, link.kind, link.resolved_by, link.start_offset, link.end_offset],
  );
}

function insertExternal(db: IndexDatabase, noteId: string, ext: ExternalInput): void {
  db.run('INSERT INTO external_links (note_id, url, title, line_number, link_type) VALUES (?, ?, ?, ?, ?)', [
    noteId,
    ext.url,
    ext.title,
    ext.line_number,
    ext.link_type,
  ]);
}
