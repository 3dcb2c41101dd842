/**
 * The SQLite index beside the files. It is a cache: when missing, corrupt, from a newer
 * schema, or built for another folder, it is rebuilt from the files (index-open.ts).
 */
import fs from 'node:fs';
import type Database from 'better-sqlite3';
import type { ListQuery, Metadata, MetadataValue, NoteSummary } from '../../kernel/note.js';
import { type NoteRow, toSummary } from './note-row.js';
import { fileStateHash, xor53 } from '../../toolkit/files/file-digest.js';
import type { FaultReporter } from '../../kernel/faults.js';
import { applySchema, type OpenedIndex } from './index-open.js';
import { titleKey } from './title-key.js';
import { quickCheck, watchConnection, wipeInPlace } from './index-recovery.js';
import { secondaryIndexes } from '../../toolkit/sqlite-indexes.js';
import { ftsMerges } from './fts-merges.js';
import { FullTextRows } from './full-text-rows.js';

/** Every index the notes tables have besides their keys (schema.ts and search-upkeep.ts create them). */
const NOTE_INDEXES = [
  'idx_notes_type ON notes(type)',
  'idx_notes_updated ON notes(updated)',
  'idx_notes_file_state ON notes(id, size, mtime_ms, content_hash)',
  'idx_metadata_key_value ON note_metadata(key, value)',
  'idx_metadata_note ON note_metadata(note_id)',
  'idx_nk_title_keys ON nk_title_keys(key)',
];

export interface IndexedNote {
  id: string;
  title: string;
  content: string;
  type: string;
  filename: string;
  path: string;
  created: string;
  updated: string;
  size: number;
  contentHash: string;
  mtimeMs: number;
  tags: string[];
  metadata: Metadata;
}

export interface FileState {
  size: number;
  mtimeMs: number;
  contentHash: string;
}

interface FtsRow {
  rowid: number | bigint;
  id: string;
  title: string;
  content: string;
  type: string;
  size: number;
  mtime_ms: number;
}

const DIGEST_KEY = 'files_digest';
/** Present once a refresh brought the rows level with the files (IndexDb.everLevel). */
const LEVEL_KEY = 'rows_level_once';

/**
 * WAL checkpoints run when writes pause this long, not inside the write that crosses SQLite's
 * threshold: a 200-note rename fills ~1,500 WAL pages, and checkpointing them took ~20 ms of
 * that tool call. A writer that never pauses still checkpoints in-line, past BACKSTOP_PAGES.
 */
const CHECKPOINT_IDLE_MS = 500;
const CHECKPOINT = 'index checkpoint';
const BACKSTOP_PAGES = 10_000;

// Titles in code point order (SQLite's BINARY collation on UTF-8), as flint-note sorts them: 'Zeta' before 'alpha'.
const ORDER_COLUMNS = { updated: 'updated', created: 'created', title: 'title COLLATE BINARY' } as const;

export class IndexDb {
  readonly db: Database.Database;
  private readonly statements;
  /** XOR of the file-state hashes changed by the transaction in progress (file-digest.ts). */
  private digestChange = 0;
  private inTransaction = false;
  private checkpointTimer: NodeJS.Timeout | undefined;
  /** Told when a statement fails with a corruption error (the store checks and rebuilds). */
  onCorruption: (err: unknown) => void = () => {};
  /**
   * A first build fills the tables without their secondary indexes and without FTS5's merges
   * (refresh.ts); `end` puts both back after it and at every open.
   */
  readonly bulkLoad: { begin(): void; end(): void };

  /** The file open: the vault's index, or a stand-in while that one cannot be used (index-open.ts). */
  readonly file: string;
  /** `notes_fts`, kept only while this backend serves the vault's searches (full-text-rows.ts). */
  readonly fullText: FullTextRows;
  private readonly standIn: string | undefined;

  constructor(
    opened: OpenedIndex,
    private readonly vaultRoot: string,
    private readonly faults: FaultReporter,
    /** Whether to keep the full-text rows: false when another backend serves the searches. */
    keepFullText = true,
  ) {
    this.file = opened.file;
    this.standIn = opened.standIn;
    this.db = watchConnection(opened.db, (err) => this.onCorruption(err));
    const db = this.db;
    const indexes = secondaryIndexes((sql) => db.exec(sql), NOTE_INDEXES);
    const merges = ftsMerges(db, 'notes_fts');
    this.bulkLoad = {
      begin: () => {
        indexes.drop();
        merges.hold();
      },
      end: () => {
        indexes.create();
        merges.release();
      },
    };
    this.bulkLoad.end();
    this.fullText = new FullTextRows(db, keepFullText);
    this.fullText.align();
    this.statements = {
      upsert:
        db.prepare(`INSERT INTO notes (id, title, content, type, filename, path, created, updated, size, content_hash, mtime_ms, tags_json, metadata_json)
        VALUES (@id, @title, @content, @type, @filename, @path, @created, @updated, @size, @contentHash, @mtimeMs, @tagsJson, @metadataJson)
        ON CONFLICT(id) DO UPDATE SET title = excluded.title, content = excluded.content, type = excluded.type, filename = excluded.filename,
          path = excluded.path, created = excluded.created, updated = excluded.updated, size = excluded.size,
          content_hash = excluded.content_hash, mtime_ms = excluded.mtime_ms, tags_json = excluded.tags_json, metadata_json = excluded.metadata_json`),
      deleteNote: db.prepare('DELETE FROM notes WHERE id = ?'),
      existing: db.prepare('SELECT rowid, id, title, content, type, size, mtime_ms FROM notes WHERE id = ?'),
      digest: db.prepare(`SELECT value FROM nk_meta WHERE key = '${DIGEST_KEY}'`).pluck(),
      setDigest: db.prepare(
        `INSERT INTO nk_meta (key, value) VALUES ('${DIGEST_KEY}', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`,
      ),
      everLevel: db.prepare(`SELECT 1 FROM nk_meta WHERE key = '${LEVEL_KEY}'`).pluck(),
      markLevel: db.prepare(`INSERT OR IGNORE INTO nk_meta (key, value) VALUES ('${LEVEL_KEY}', '1')`),
      setTitleKey: db.prepare(
        'INSERT INTO nk_title_keys (note_rowid, key) VALUES (?, ?) ON CONFLICT(note_rowid) DO UPDATE SET key = excluded.key',
      ),
      deleteTitleKey: db.prepare('DELETE FROM nk_title_keys WHERE note_rowid = ?'),
      deleteMetadata: db.prepare('DELETE FROM note_metadata WHERE note_id = ?'),
      insertMetadata: db.prepare('INSERT INTO note_metadata (note_id, key, value, value_type) VALUES (?, ?, ?, ?)'),
      fileStates: db
        .prepare('SELECT id, size, mtime_ms, content_hash FROM notes INDEXED BY idx_notes_file_state')
        .raw(),
      // The covering index, not the row: a first read of a note touches 1 MB of index at 10,000
      // notes instead of the 19 MB table whose rows carry the content (11–17 → 6.5 µs a lookup).
      fileState: db.prepare(
        'SELECT size, mtime_ms, content_hash FROM notes INDEXED BY idx_notes_file_state WHERE id = ?',
      ),
      summary: db.prepare(
        'SELECT id, title, type, filename, path, created, updated, size, content_hash, tags_json, metadata_json FROM notes WHERE id = ?',
      ),
      count: db.prepare('SELECT COUNT(*) AS n FROM notes'),
      any: db.prepare('SELECT 1 FROM notes LIMIT 1').pluck(),
      countType: db.prepare('SELECT COUNT(*) AS n FROM notes WHERE type = ?'),
      types: db.prepare('SELECT type, COUNT(*) AS n FROM notes GROUP BY type'),
    };
    this.db.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
    this.ensureFilesDigest();
  }

  /** Call after any write on this connection (plugin tables too): arms the idle-time checkpoint. */
  afterWrite(): void {
    if (this.checkpointTimer) {
      this.checkpointTimer.refresh();
      return;
    }
    this.checkpointTimer = setTimeout(() => {
      this.checkpointTimer = undefined;
      if (!this.db.open) return;
      try {
        // PASSIVE: never waits for readers or writers; what it cannot copy now waits for the next.
        this.db.pragma('wal_checkpoint(PASSIVE)');
        this.faults.clear(CHECKPOINT);
      } catch (err) {
        // A full disk, say: the index still answers from its write-ahead log; the next write retries.
        this.faults.report(
          CHECKPOINT,
          err,
          'The index keeps answering; its write-ahead log is copied back at the next write that finds room.',
        );
      }
    }, CHECKPOINT_IDLE_MS);
    this.checkpointTimer.unref();
  }

  /** Writes the row, its metadata rows and its full-text entry; call inside `transaction()` for batches. */
  upsert(note: IndexedNote): void {
    if (!this.inTransaction) return this.transaction(() => this.upsert(note));
    const s = this.statements;
    const old = s.existing.get(note.id) as FtsRow | undefined;
    this.digestChange = xor53(this.digestChange, fileStateHash(note.id, note.size, note.mtimeMs));
    if (old) {
      this.digestChange = xor53(this.digestChange, fileStateHash(old.id, old.size, old.mtime_ms));
      this.fullText.drop(old);
      s.deleteMetadata.run(note.id);
    }
    const { lastInsertRowid } = s.upsert.run({
      ...note,
      tagsJson: JSON.stringify(note.tags),
      metadataJson: JSON.stringify(note.metadata),
    });
    const rowid = old ? old.rowid : lastInsertRowid;
    this.fullText.add({ rowid, id: note.id, title: note.title, content: note.content, type: note.type });
    s.setTitleKey.run(rowid, titleKey(note.title));
    for (const [key, value] of Object.entries(note.metadata)) {
      for (const [text, kind] of metadataRows(value)) s.insertMetadata.run(note.id, key, text, kind);
    }
  }

  remove(id: string): void {
    if (!this.inTransaction) return this.transaction(() => this.remove(id));
    const s = this.statements;
    const old = s.existing.get(id) as FtsRow | undefined;
    if (!old) return;
    this.digestChange = xor53(this.digestChange, fileStateHash(old.id, old.size, old.mtime_ms));
    this.fullText.drop(old);
    s.deleteTitleKey.run(old.rowid);
    s.deleteMetadata.run(id);
    s.deleteNote.run(id);
  }

  transaction<T>(fn: () => T): T {
    if (this.inTransaction) throw new Error('IndexDb transactions do not nest');
    this.inTransaction = true;
    this.digestChange = 0;
    try {
      // IMMEDIATE: the write lock is taken (waiting out another process) before the first read,
      // so a read-then-write transaction never fails with SQLITE_BUSY when a second process
      // committed in between, as a deferred one would.
      return this.db
        .transaction(() => {
          const result = fn();
          // Read inside the write lock: another process's changes are already in the stored value.
          const stored = this.filesDigest();
          if (this.digestChange && stored !== undefined)
            this.statements.setDigest.run(String(xor53(stored, this.digestChange)));
          return result;
        })
        .immediate();
    } finally {
      this.afterWrite();
      this.inTransaction = false;
      this.digestChange = 0;
    }
  }

  /** The digest of every row's (id, size, mtime); undefined until `ensureFilesDigest()` made one. */
  filesDigest(): number | undefined {
    const value = this.statements.digest.get() as string | undefined;
    return value === undefined ? undefined : Number(value);
  }

  /**
   * Whether a refresh ever brought every row level with the files. The rows are then a whole
   * earlier state of the vault (later refreshes change them note by note), worth answering from
   * while the next refresh catches up; a first build cut short is not (decision 026).
   */
  everLevel(): boolean {
    return this.statements.everLevel.get() !== undefined;
  }

  markLevel(): void {
    if (!this.everLevel()) this.statements.markLevel.run();
  }

  /** Computes the digest from the rows when the index has none (made by an older notekernel). */
  ensureFilesDigest(): void {
    if (this.filesDigest() === undefined) this.resetFilesDigest();
  }

  /** Computes the digest from the rows, under the write lock so no change slips in between. */
  resetFilesDigest(): void {
    this.transaction(() => {
      let digest = 0;
      for (const [id, state] of this.fileStates()) digest = xor53(digest, fileStateHash(id, state.size, state.mtimeMs));
      this.statements.setDigest.run(String(digest));
    });
  }

  fileStates(): Map<string, FileState> {
    // Raw rows (arrays): no object per row for 10,000 rows at every start.
    const rows = this.statements.fileStates.all() as Array<[string, number, number, string]>;
    return new Map(rows.map(([id, size, mtimeMs, contentHash]) => [id, { size, mtimeMs, contentHash }]));
  }

  fileState(id: string): FileState | undefined {
    const row = this.statements.fileState.get(id) as
      | { size: number; mtime_ms: number; content_hash: string }
      | undefined;
    return row && { size: row.size, mtimeMs: row.mtime_ms, contentHash: row.content_hash };
  }

  summary(id: string): NoteSummary | undefined {
    const row = this.statements.summary.get(id) as NoteRow | undefined;
    return row && toSummary(row);
  }

  list(query: ListQuery = {}): NoteSummary[] {
    const order = ORDER_COLUMNS[query.orderBy ?? 'updated'];
    const direction = query.direction === 'asc' ? 'ASC' : 'DESC';
    const where = query.type !== undefined ? 'WHERE type = @type' : '';
    const sql = `SELECT id, title, type, filename, path, created, updated, size, content_hash, tags_json, metadata_json FROM notes ${where}
      ORDER BY ${order} ${direction}, id ASC LIMIT @limit OFFSET @offset`;
    const rows = this.db.prepare(sql).all({
      ...(query.type !== undefined ? { type: query.type } : {}),
      limit: query.limit ?? -1,
      offset: query.offset ?? 0,
    }) as NoteRow[];
    return rows.map(toSummary);
  }

  /** Whether no note is indexed (one row read, where `count` walks them all). */
  empty(): boolean {
    return this.statements.any.get() === undefined;
  }

  count(type?: string): number {
    const row = (type === undefined ? this.statements.count.get() : this.statements.countType.get(type)) as {
      n: number;
    };
    return row.n;
  }

  typeCounts(): Map<string, number> {
    const rows = this.statements.types.all() as Array<{ type: string; n: number }>;
    return new Map(rows.map((r) => [r.type, r.n]));
  }

  /** Problems `PRAGMA quick_check` finds, [] when the file is sound. */
  check(): string[] {
    return quickCheck(this.db);
  }

  /**
   * Empties a damaged index in place (a copy kept beside it) and recreates the schema, on the
   * same connection; the caller refills it from the files. Returns where the copy went.
   */
  rebuildInPlace(): string | undefined {
    const kept = wipeInPlace(this.db, this.file);
    applySchema(this.db);
    this.fullText.align();
    this.db.prepare("INSERT OR REPLACE INTO nk_meta (key, value) VALUES ('vault_root', ?)").run(this.vaultRoot);
    this.resetFilesDigest();
    return kept;
  }

  close(): void {
    clearTimeout(this.checkpointTimer);
    if (this.db.open) this.db.close();
    if (this.standIn) fs.rmSync(this.standIn, { recursive: true, force: true });
  }
}

/** One row per scalar; arrays become one row per element so `key = 'tags' AND value = 'x'` works. */
function metadataRows(value: MetadataValue): Array<[string | null, string]> {
  if (Array.isArray(value)) return value.map((item) => [scalarText(item), 'array']);
  if (value === null) return [[null, 'null']];
  if (typeof value === 'number') return [[String(value), 'number']];
  if (typeof value === 'boolean') return [[String(value), 'boolean']];
  if (typeof value === 'object') return [[JSON.stringify(value), 'object']];
  return [[value, /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value) ? 'date' : 'string']];
}

function scalarText(value: MetadataValue): string | null {
  if (value === null) return null;
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}
