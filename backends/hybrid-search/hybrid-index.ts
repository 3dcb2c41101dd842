/**
 * The hybrid SearchIndex's embedded engine: chunks, their FTS5 rows and their vectors in the
 * vault's SQLite index, kept in step with the notes (upsert, remove, reconcile), answering by
 * keyword, by meaning, or both fused (`search.ts`). A write stores a note's passages and keywords
 * at once; their vectors are computed behind it (`EmbedQueue`), so keyword search answers while
 * a vault's first indexing is still embedding, and a search by meaning answers from the vectors
 * that are ready and says how many (`SearchPage.vectors`).
 */
import type Database from 'better-sqlite3';
import type {
  BackgroundReport,
  Logger,
  Note,
  ReconcileReport,
  ReconcileSource,
  SearchIndex,
  SearchPage,
  SearchQuery,
} from '../../kernel/index.js';
import type { ProgressReporter } from '../../kernel/progress.js';
import { DEFAULT_CHUNK_CHARS } from '../../toolkit/embedding/chunks.js';
import type { Embedder } from '../../toolkit/embedding/embedder.js';
import { EmbedQueue } from './embed-queue.js';
import { blobToVector, ftsValues, openIndexDb, vectorToBlob, type NoteRow } from './index-db.js';
import { embeddedText, passagesOf, type Passage } from '../../toolkit/embedding/passages.js';
import { embedderDownNotice, QueryVectors, searchOrKeywords } from '../../toolkit/embedding/query-vectors.js';
import { searchIndex, type SearchTuning } from './search.js';
import { VectorMatrix } from './vector-matrix.js';

export interface HybridIndexOptions extends SearchTuning {
  /** The SQLite file, or `:memory:`. */
  file: string;
  /** Without one the index is keyword-only (the `keyword-search` backend): nothing is embedded. */
  embedder?: Embedder;
  maxChunkChars?: number;
  logger?: Logger;
  /** Passages per embed call in the background. */
  embedBatch?: number;
  /** Longest a semantic or hybrid search waits for a just-written note's vectors (default 2,000 ms). */
  vectorWaitMs?: number;
}

export interface HybridIndexStats {
  notes: number;
  /** Passages indexed (keywords); those with a vector are `vectors`. */
  chunks: number;
  vectors: number;
  /** Texts sent to the embedder since open (a cached passage costs none). */
  embedded: number;
  /** Passages waiting for their vector. */
  pending: number;
}

/** Changed notes read and stored in one transaction during reconcile. */
const RECONCILE_GROUP = 64;

/** What searching by meaning holds: the vectors, the queue that makes them, the query's vectors. */
interface Meaning {
  matrix: VectorMatrix;
  queue: EmbedQueue;
  queryVectors: QueryVectors;
}

export class HybridSearchIndex implements SearchIndex {
  private readonly db: Database.Database;
  private readonly meaning: Meaning | undefined;
  private readonly notes = new Map<string, NoteRow>();
  private tail: Promise<unknown> = Promise.resolve();
  /** Each passage's note, by passage id: a question's matching notes named without a join (search.ts). */
  private readonly chunkNotes = new Map<number, string>();
  private closed = false;

  constructor(private readonly options: HybridIndexOptions) {
    const { embedder } = options;
    this.db = openIndexDb(options.file, embedder ? `${embedder.id}/${embedder.dim}` : 'none');
    for (const row of this.db.prepare<[], NoteRow>('SELECT id, title, type, updated, content_hash FROM notes').all())
      this.notes.set(row.id, row);
    for (const row of this.db.prepare<[], { id: number; note_id: string }>('SELECT id, note_id FROM chunks').iterate())
      this.chunkNotes.set(row.id, row.note_id);
    this.meaning = embedder && this.openMeaning(embedder);
  }

  private openMeaning(embedder: Embedder): Meaning {
    const matrix = new VectorMatrix(embedder.dim);
    const queue = new EmbedQueue({
      embedder,
      onVectors: (hashes, vectors) => this.storeVectors(hashes, vectors),
      ...(this.options.logger ? { logger: this.options.logger } : {}),
      ...(this.options.embedBatch ? { batchSize: this.options.embedBatch } : {}),
    });
    const vectors = this.db.prepare<[], { id: number; note_id: string; vector: Buffer }>(
      'SELECT c.id, c.note_id, v.vector FROM chunks c JOIN vectors v ON v.hash = c.hash',
    );
    for (const row of vectors.iterate()) matrix.add(row.id, row.note_id, blobToVector(row.vector));
    // Passages stored by a run that ended before their vectors were made: embed them now.
    const missing = this.db.prepare<[], { hash: string; title: string; heading: string; text: string }>(
      'SELECT c.hash, n.title, c.heading, c.text FROM chunks c JOIN notes n ON n.id = c.note_id WHERE NOT EXISTS (SELECT 1 FROM vectors v WHERE v.hash = c.hash)',
    );
    for (const row of missing.iterate()) queue.add(row.hash, embeddedText(row.title, row.heading, row.text), false);
    return { matrix, queue, queryVectors: new QueryVectors(embedder) };
  }

  stats(): HybridIndexStats {
    const m = this.meaning;
    return {
      notes: this.notes.size,
      chunks: this.chunkNotes.size,
      vectors: m?.matrix.size ?? 0,
      embedded: m?.queue.embedded ?? 0,
      pending: m?.queue.pending ?? 0,
    };
  }

  upsert(note: Note): Promise<void> {
    return this.exclusive(async () => this.write([note], true));
  }

  remove(id: string): Promise<void> {
    return this.exclusive(async () => this.unindex(id));
  }

  reconcile(source: ReconcileSource): Promise<ReconcileReport> {
    return this.exclusive(async () => {
      const report: ReconcileReport = { upserted: 0, removed: 0, unchanged: 0 };
      const listed = await source.list();
      const present = new Set(listed.map((summary) => summary.id));
      for (const id of [...this.notes.keys()]) {
        if (present.has(id)) continue;
        this.unindex(id);
        report.removed += 1;
      }
      const changed = listed.filter((summary) => this.notes.get(summary.id)?.content_hash !== summary.contentHash);
      report.unchanged = listed.length - changed.length;
      for (let start = 0; start < changed.length; start += RECONCILE_GROUP) {
        const group: Note[] = [];
        for (const summary of changed.slice(start, start + RECONCILE_GROUP)) {
          const note = await source.get(summary.id);
          if (note) group.push(note);
        }
        // Keywords now; the catch-up's vectors in the background, behind any write's.
        this.write(group, false);
        report.upserted += group.length;
      }
      return report;
    });
  }

  async search(query: SearchQuery): Promise<SearchPage> {
    const m = this.meaning;
    const state = {
      db: this.db,
      notes: this.notes,
      chunkNotes: this.chunkNotes,
      tuning: this.options,
      ...(m ? { matrix: m.matrix, queryVectors: m.queryVectors } : {}),
    };
    if (m === undefined) return searchIndex(state, { ...query, mode: 'keyword' });
    const byMeaning = query.mode !== 'keyword' && query.text.trim() !== '';
    // A note just written is found by meaning too: its few passages go first in the queue.
    if (byMeaning) await m.queue.urgentDone(this.options.vectorWaitMs ?? 2_000);
    // A query the embedder cannot embed is answered by keyword, with a notice (decision 036).
    const { page, embedderDown } = await searchOrKeywords(query, (q) => searchIndex(state, q));
    if (embedderDown !== undefined) return { ...page, notice: embedderDownNotice(embedderDown) };
    const ready = m.matrix.size;
    if (!byMeaning || ready >= this.chunkNotes.size) return page;
    return {
      ...page,
      vectors: { ready, total: this.chunkNotes.size },
      notice: vectorsNotice(ready, this.chunkNotes.size, m.queue.failure),
    };
  }

  async finishBackground(progress?: ProgressReporter): Promise<BackgroundReport> {
    return this.meaning ? this.meaning.queue.finish(progress) : { done: 0, ms: 0 };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.meaning?.queue.close();
    await this.tail.catch(() => undefined);
    if (this.db.open) this.db.close();
    await this.options.embedder?.close?.();
  }

  /** Stores each note's passages and keywords; passages whose text has a vector get it now, the rest are queued. */
  private write(notes: readonly Note[], urgent: boolean): void {
    const known = this.db.prepare<[string], { vector: Buffer }>('SELECT vector FROM vectors WHERE hash = ?');
    const planned = notes.map((note) => ({
      note,
      passages: passagesOf(note, this.options.maxChunkChars ?? DEFAULT_CHUNK_CHARS),
    }));
    const added: Array<{ id: number; noteId: string; vector: Float32Array }> = [];
    const dropped: Array<{ id: number; hash: string }> = [];
    const inserted: Array<{ id: number; noteId: string }> = [];
    const queued: Passage[] = [];
    // Read before the old rows go: an unchanged passage's vector is orphaned for a moment below.
    const cached = new Map<string, Float32Array>();
    for (const passage of planned.flatMap((p) => p.passages)) {
      const stored = cached.has(passage.hash) ? undefined : known.get(passage.hash);
      if (stored) cached.set(passage.hash, blobToVector(stored.vector));
    }
    const keepVector = this.db.prepare('INSERT OR IGNORE INTO vectors (hash, vector) VALUES (?, ?)');
    this.db.transaction(() => {
      for (const { note, passages } of planned) {
        dropped.push(...this.forget(note.id));
        const row: NoteRow = {
          id: note.id,
          title: note.title,
          type: note.type ?? null,
          updated: note.updated,
          content_hash: note.contentHash,
        };
        this.db
          .prepare(
            'INSERT INTO notes (id, title, type, updated, content_hash) VALUES (@id, @title, @type, @updated, @content_hash)',
          )
          .run(row);
        const insertChunk = this.db.prepare(
          'INSERT INTO chunks (note_id, seq, hash, heading, text) VALUES (?, ?, ?, ?, ?)',
        );
        const insertFts = this.db.prepare('INSERT INTO chunks_fts (rowid, title, heading, text) VALUES (?, ?, ?, ?)');
        passages.forEach((passage, seq) => {
          const id = Number(insertChunk.run(note.id, seq, passage.hash, passage.heading, passage.text).lastInsertRowid);
          insertFts.run(id, ...ftsValues(note.title, passage.heading, passage.text));
          inserted.push({ id, noteId: note.id });
          const vector = cached.get(passage.hash);
          if (!this.meaning) return;
          if (vector) {
            keepVector.run(passage.hash, vectorToBlob(vector));
            added.push({ id, noteId: note.id, vector });
          } else queued.push(passage);
        });
      }
    })();
    // Memory (the matrix, the note map, the queue) follows only a committed transaction.
    for (const { id, hash } of dropped) this.dropChunk(id, hash);
    for (const { note } of planned)
      this.notes.set(note.id, {
        id: note.id,
        title: note.title,
        type: note.type ?? null,
        updated: note.updated,
        content_hash: note.contentHash,
      });
    for (const { id, noteId } of inserted) this.chunkNotes.set(id, noteId);
    for (const { id, noteId, vector } of added) this.meaning?.matrix.add(id, noteId, vector);
    for (const passage of queued) this.meaning?.queue.add(passage.hash, passage.embedded, urgent);
  }

  /** A finished batch: kept for every passage that still holds its text; one edited away meanwhile is dropped. */
  private storeVectors(hashes: string[], vectors: Float32Array[]): void {
    if (this.closed || !this.db.open) return;
    const users = this.db.prepare<[string], { id: number; note_id: string }>(
      'SELECT id, note_id FROM chunks WHERE hash = ?',
    );
    const insert = this.db.prepare('INSERT OR IGNORE INTO vectors (hash, vector) VALUES (?, ?)');
    const added: Array<{ id: number; noteId: string; vector: Float32Array }> = [];
    this.db.transaction(() => {
      hashes.forEach((hash, i) => {
        const rows = users.all(hash);
        if (rows.length === 0) return;
        insert.run(hash, vectorToBlob(vectors[i]!));
        for (const row of rows) added.push({ id: row.id, noteId: row.note_id, vector: vectors[i]! });
      });
    })();
    for (const { id, noteId, vector } of added) this.meaning?.matrix.add(id, noteId, vector);
  }

  private unindex(id: string): void {
    const dropped = this.db.transaction(() => this.forget(id))();
    for (const { id: chunkId, hash } of dropped) this.dropChunk(chunkId, hash);
    this.notes.delete(id);
  }

  private dropChunk(id: number, hash: string): void {
    this.chunkNotes.delete(id);
    if (!this.meaning) return;
    this.meaning.matrix.delete(id);
    if (!this.hashInUse(hash)) this.meaning.queue.forget(hash);
  }

  private hashInUse(hash: string): boolean {
    return (
      this.db.prepare<[string], { one: number }>('SELECT 1 AS one FROM chunks WHERE hash = ? LIMIT 1').get(hash) !==
      undefined
    );
  }

  /** Deletes a note's rows (inside the caller's transaction) and the vectors no other chunk shares; returns its chunks. */
  private forget(id: string): Array<{ id: number; hash: string }> {
    const old = this.db
      .prepare<[string], { id: number; hash: string; title: string; heading: string; text: string }>(
        'SELECT c.id, c.hash, n.title, c.heading, c.text FROM chunks c JOIN notes n ON n.id = c.note_id WHERE c.note_id = ?',
      )
      .all(id);
    // The FTS table reads its text from the chunks: it is told the folded words it indexed.
    const deleteFts = this.db.prepare(
      "INSERT INTO chunks_fts (chunks_fts, rowid, title, heading, text) VALUES ('delete', ?, ?, ?, ?)",
    );
    for (const chunk of old) deleteFts.run(chunk.id, ...ftsValues(chunk.title, chunk.heading, chunk.text));
    this.db.prepare('DELETE FROM chunks WHERE note_id = ?').run(id);
    this.db.prepare('DELETE FROM notes WHERE id = ?').run(id);
    const orphan = this.db.prepare(
      'DELETE FROM vectors WHERE hash = ? AND NOT EXISTS (SELECT 1 FROM chunks WHERE hash = ?)',
    );
    for (const { hash } of old) orphan.run(hash, hash);
    return old.map((chunk) => ({ id: chunk.id, hash: chunk.hash }));
  }

  private exclusive<T>(run: () => Promise<T>): Promise<T> {
    const result = this.tail.then(run, run);
    this.tail = result.catch(() => undefined);
    return result;
  }
}

/** `failure`: why the embedder keeps failing, when it does (the queue retries meanwhile). */
export function vectorsNotice(ready: number, total: number, failure?: string): string {
  const why =
    failure === undefined
      ? 'Vectors are still being built'
      : `Vectors are missing, the embedder failing (${failure.replace(/\.$/, '')}) and retried`;
  return `${why} (${ready} of ${total} passages ready): the ranking by meaning covers only those; keyword matches are complete.`;
}
