/**
 * The hybrid SearchIndex: keeps chunks, their FTS5 rows and their vectors in step with the notes
 * (upsert, remove, reconcile), and answers searches by keyword, by meaning, or both fused
 * (`search.ts`). Writes are serialised: an upsert awaits the embedder between reading what it
 * has and writing what it computed, and two interleaved upserts of one note would mix chunks.
 */
import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { Note, ReconcileReport, ReconcileSource, SearchIndex, SearchPage, SearchQuery } from '../../kernel/index.js';
import { chunkNote, DEFAULT_CHUNK_CHARS, type Chunk } from '../../toolkit/embedding/chunks.js';
import { embedInBatches, type Embedder } from '../../toolkit/embedding/embedder.js';
import { blobToVector, openIndexDb, vectorToBlob, type NoteRow } from './index-db.js';
import { searchIndex, type SearchTuning } from './search.js';
import { VectorMatrix } from './vector-matrix.js';

export interface HybridIndexOptions extends SearchTuning {
  /** The SQLite file, or `:memory:`. */
  file: string;
  embedder: Embedder;
  maxChunkChars?: number;
}

export interface HybridIndexStats {
  notes: number;
  chunks: number;
  /** Texts sent to the embedder since open (a cached chunk costs none). */
  embedded: number;
}

/** Changed notes read and embedded together during reconcile. */
const RECONCILE_GROUP = 16;

interface PlannedChunk extends Chunk {
  /** What the embedder sees: title, heading and text. */
  embedded: string;
  hash: string;
}

export class HybridSearchIndex implements SearchIndex {
  private readonly db: Database.Database;
  private readonly matrix: VectorMatrix;
  private readonly notes = new Map<string, NoteRow>();
  private tail: Promise<unknown> = Promise.resolve();
  private embedded = 0;

  constructor(private readonly options: HybridIndexOptions) {
    const { embedder } = options;
    this.db = openIndexDb(options.file, `${embedder.id}/${embedder.dim}`);
    this.matrix = new VectorMatrix(embedder.dim);
    for (const row of this.db.prepare<[], NoteRow>('SELECT id, title, type, updated, content_hash FROM notes').all()) this.notes.set(row.id, row);
    const vectors = this.db.prepare<[], { id: number; note_id: string; vector: Buffer }>('SELECT c.id, c.note_id, v.vector FROM chunks c JOIN vectors v ON v.hash = c.hash');
    for (const row of vectors.iterate()) this.matrix.add(row.id, row.note_id, blobToVector(row.vector));
  }

  stats(): HybridIndexStats {
    return { notes: this.notes.size, chunks: this.matrix.size, embedded: this.embedded };
  }

  upsert(note: Note): Promise<void> {
    return this.exclusive(() => this.write([note]));
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
      // Notes embedded together fill the model's batches: one short note alone is a batch of one.
      for (let start = 0; start < changed.length; start += RECONCILE_GROUP) {
        const group: Note[] = [];
        for (const summary of changed.slice(start, start + RECONCILE_GROUP)) {
          const note = await source.get(summary.id);
          if (note) group.push(note);
        }
        await this.write(group);
        report.upserted += group.length;
      }
      return report;
    });
  }

  async search(query: SearchQuery): Promise<SearchPage> {
    return searchIndex({ db: this.db, matrix: this.matrix, notes: this.notes, embedder: this.options.embedder, tuning: this.options }, query);
  }

  async close(): Promise<void> {
    await this.tail.catch(() => undefined);
    if (this.db.open) this.db.close();
    await this.options.embedder.close?.();
  }

  /** Embeds what the notes' chunks lack (one set of batches for all), then commits each note. */
  private async write(notes: readonly Note[]): Promise<void> {
    const planned = notes.map((note) => ({ note, chunks: this.chunksOf(note) }));
    const known = this.db.prepare<[string], { vector: Buffer }>('SELECT vector FROM vectors WHERE hash = ?');
    const vectors = new Map<string, Float32Array>();
    const missing = new Map<string, string>();
    for (const chunk of planned.flatMap((p) => p.chunks)) {
      if (vectors.has(chunk.hash) || missing.has(chunk.hash)) continue;
      const row = known.get(chunk.hash);
      if (row) vectors.set(chunk.hash, blobToVector(row.vector));
      else missing.set(chunk.hash, chunk.embedded);
    }
    const fresh = await embedInBatches(this.options.embedder, [...missing.values()]);
    this.embedded += fresh.length;
    [...missing.keys()].forEach((hash, i) => vectors.set(hash, fresh[i]!));
    for (const { note, chunks } of planned) this.commit(note, chunks, vectors);
  }

  private chunksOf(note: Note): PlannedChunk[] {
    const pieces = chunkNote(note.content, this.options.maxChunkChars ?? DEFAULT_CHUNK_CHARS);
    // A note with no body is still found by its title.
    if (pieces.length === 0) pieces.push({ heading: '', text: '' });
    return pieces.map((piece) => {
      // The title and heading travel with each passage: "Budget" under "## Kestrel" is about the kestrel.
      const embedded = [note.title, piece.heading, piece.text].filter(Boolean).join('\n');
      return { ...piece, embedded, hash: createHash('sha256').update(embedded).digest('base64url') };
    });
  }

  private commit(note: Note, chunks: readonly PlannedChunk[], vectors: ReadonlyMap<string, Float32Array>): void {
    const added: Array<{ id: number; vector: Float32Array }> = [];
    const row: NoteRow = { id: note.id, title: note.title, type: note.type ?? null, updated: note.updated, content_hash: note.contentHash };
    // Memory (the matrix, the note map) follows only a committed transaction.
    const dropped = this.db.transaction(() => {
      const dropped = this.forget(note.id);
      this.db.prepare('INSERT INTO notes (id, title, type, updated, content_hash) VALUES (@id, @title, @type, @updated, @content_hash)').run(row);
      const insertChunk = this.db.prepare('INSERT INTO chunks (note_id, seq, hash, heading, text) VALUES (?, ?, ?, ?, ?)');
      const insertFts = this.db.prepare('INSERT INTO chunks_fts (rowid, title, heading, text) VALUES (?, ?, ?, ?)');
      const insertVector = this.db.prepare('INSERT OR IGNORE INTO vectors (hash, vector) VALUES (?, ?)');
      chunks.forEach((chunk, seq) => {
        const id = Number(insertChunk.run(note.id, seq, chunk.hash, chunk.heading, chunk.text).lastInsertRowid);
        insertFts.run(id, note.title, chunk.heading, chunk.text);
        const vector = vectors.get(chunk.hash)!;
        insertVector.run(chunk.hash, vectorToBlob(vector));
        added.push({ id, vector });
      });
      return dropped;
    })();
    for (const chunkId of dropped) this.matrix.delete(chunkId);
    for (const { id, vector } of added) this.matrix.add(id, note.id, vector);
    this.notes.set(note.id, row);
  }

  private unindex(id: string): void {
    const dropped = this.db.transaction(() => this.forget(id))();
    for (const chunkId of dropped) this.matrix.delete(chunkId);
    this.notes.delete(id);
  }

  /** Deletes a note's rows (inside the caller's transaction) and the vectors no other chunk shares; returns its chunk ids. */
  private forget(id: string): number[] {
    const old = this.db.prepare<[string], { id: number; hash: string }>('SELECT id, hash FROM chunks WHERE note_id = ?').all(id);
    const deleteFts = this.db.prepare('DELETE FROM chunks_fts WHERE rowid = ?');
    for (const chunk of old) deleteFts.run(chunk.id);
    this.db.prepare('DELETE FROM chunks WHERE note_id = ?').run(id);
    this.db.prepare('DELETE FROM notes WHERE id = ?').run(id);
    const orphan = this.db.prepare('DELETE FROM vectors WHERE hash = ? AND NOT EXISTS (SELECT 1 FROM chunks WHERE hash = ?)');
    for (const { hash } of old) orphan.run(hash, hash);
    return old.map((chunk) => chunk.id);
  }

  private exclusive<T>(run: () => Promise<T>): Promise<T> {
    const result = this.tail.then(run, run);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
