/**
 * The hybrid SearchIndex's scale-out engine: PostgreSQL + pgvector, selected by config alone
 * (`options: { engine: postgres, url }`). The same passages (`../passages.ts`), the same embedder
 * and background queue (`../embed-queue.ts`: keywords at once, vectors behind), the same query
 * syntax and fusion contract as the embedded engine; ranking happens in the database, one
 * statement per search (`pg-search.ts`). Decision 023 records the choice and the figures.
 */
import type {
  BackgroundReport,
  Logger,
  Note,
  ReconcileReport,
  ReconcileSource,
  SearchIndex,
  SearchPage,
  SearchQuery,
} from '../../../kernel/index.js';
import type { ProgressReporter } from '../../../kernel/progress.js';
import { DEFAULT_CHUNK_CHARS } from '../../../toolkit/embedding/chunks.js';
import type { Embedder } from '../../../toolkit/embedding/embedder.js';
import { EmbedQueue } from '../embed-queue.js';
import { vectorsNotice } from '../hybrid-index.js';
import { embeddedText, passagesOf } from '../../../toolkit/embedding/passages.js';
import { embedderDownNotice, QueryVectors, searchOrKeywords } from '../../../toolkit/embedding/query-vectors.js';
import { DEFAULT_MIN_SIMILARITY } from '../search.js';
import { loadPg, type PgClient, type PgPool } from './pg-driver.js';
import { ensureSchema, SCHEMA_NAME, tsvectorOf, tsvectorTexts, vectorLiteral } from './pg-schema.js';
import { pgSearch } from './pg-search.js';

export interface PgIndexOptions {
  url: string;
  /** The schema holding this vault's tables (one vault per schema). */
  schema: string;
  embedder: Embedder;
  maxChunkChars?: number;
  minSimilarity?: number;
  fusionKeywords?: 'all' | 'any';
  /** Nearest passages the semantic leg ranks (default 200). */
  candidates?: number;
  vectorWaitMs?: number;
  embedBatch?: number;
  logger?: Logger;
}

const RECONCILE_GROUP = 200;

export class PgHybridIndex implements SearchIndex {
  private readonly queue: EmbedQueue;
  private readonly queryVectors: QueryVectors;
  private tail: Promise<unknown> = Promise.resolve();
  private closed = false;

  private constructor(
    private readonly pool: PgPool,
    private readonly options: PgIndexOptions,
  ) {
    this.queryVectors = new QueryVectors(options.embedder);
    this.queue = new EmbedQueue({
      embedder: options.embedder,
      onVectors: (hashes, vectors) => this.storeVectors(hashes, vectors),
      ...(options.logger ? { logger: options.logger } : {}),
      ...(options.embedBatch ? { batchSize: options.embedBatch } : {}),
    });
  }

  static async open(options: PgIndexOptions): Promise<PgHybridIndex> {
    if (!SCHEMA_NAME.test(options.schema))
      throw new Error(`schema "${options.schema}" is not a plain lower-case SQL name`);
    const { Pool } = loadPg();
    const candidates = options.candidates ?? 200;
    // The HNSW search keeps ef_search candidates: at least as many as the semantic leg asks for.
    const pool = new Pool({
      connectionString: options.url,
      max: 4,
      options: `-c hnsw.ef_search=${Math.max(40, candidates)}`,
      connectionTimeoutMillis: 10_000,
    });
    pool.on('error', (err) => options.logger?.warn({ err }, 'postgres connection lost; the pool reconnects'));
    try {
      await ensureSchema(pool, options.schema, `${options.embedder.id}/${options.embedder.dim}`, options.embedder.dim);
    } catch (err) {
      await pool.end().catch(() => undefined);
      throw err;
    }
    const index = new PgHybridIndex(pool, { ...options, candidates });
    await index.queueMissingVectors();
    return index;
  }

  private get s(): string {
    return `"${this.options.schema}"`;
  }

  upsert(note: Note): Promise<void> {
    return this.exclusive(() => this.write([note], true));
  }

  remove(id: string): Promise<void> {
    return this.exclusive(async () => {
      const unused = await this.transaction((client) => this.forget(client, [id]));
      for (const hash of unused) this.queue.forget(hash);
    });
  }

  reconcile(source: ReconcileSource): Promise<ReconcileReport> {
    return this.exclusive(async () => {
      const report: ReconcileReport = { upserted: 0, removed: 0, unchanged: 0 };
      const listed = await source.list();
      const indexed = new Map(
        (
          await this.pool.query<{ id: string; content_hash: string }>(`SELECT id, content_hash FROM ${this.s}.notes`)
        ).rows.map((r) => [r.id, r.content_hash]),
      );
      const present = new Set(listed.map((summary) => summary.id));
      const gone = [...indexed.keys()].filter((id) => !present.has(id));
      if (gone.length)
        for (const hash of await this.transaction((client) => this.forget(client, gone))) this.queue.forget(hash);
      report.removed = gone.length;
      const changed = listed.filter((summary) => indexed.get(summary.id) !== summary.contentHash);
      report.unchanged = listed.length - changed.length;
      for (let start = 0; start < changed.length; start += RECONCILE_GROUP) {
        const group: Note[] = [];
        for (const summary of changed.slice(start, start + RECONCILE_GROUP)) {
          const note = await source.get(summary.id);
          if (note) group.push(note);
        }
        await this.write(group, false);
        report.upserted += group.length;
      }
      return report;
    });
  }

  async search(query: SearchQuery): Promise<SearchPage> {
    const byMeaning = query.mode !== 'keyword' && query.text.trim() !== '';
    if (byMeaning) await this.queue.urgentDone(this.options.vectorWaitMs ?? 2_000);
    const state = {
      pool: this.pool,
      schema: this.options.schema,
      embedQuery: (text: string) => this.queryVectors.of(text),
      minSimilarity: this.options.minSimilarity ?? DEFAULT_MIN_SIMILARITY,
      fusionKeywords: this.options.fusionKeywords ?? 'any',
      candidates: this.options.candidates ?? 200,
    };
    // A query the embedder cannot embed is answered by keyword, with a notice (decision 036).
    const { page, embedderDown } = await searchOrKeywords(query, (q) => pgSearch(state, q));
    if (embedderDown !== undefined) return { ...page, notice: embedderDownNotice(embedderDown) };
    if (!byMeaning || this.queue.pending === 0) return page;
    const counts = (
      await this.pool.query<{ total: string; ready: string }>(
        `SELECT count(*) AS total, count(*) FILTER (WHERE EXISTS (SELECT 1 FROM ${this.s}.vectors v WHERE v.hash = c.hash)) AS ready FROM ${this.s}.chunks c`,
      )
    ).rows[0]!;
    const ready = Number(counts.ready);
    const total = Number(counts.total);
    return ready >= total
      ? page
      : { ...page, vectors: { ready, total }, notice: vectorsNotice(ready, total, this.queue.failure) };
  }

  finishBackground(progress?: ProgressReporter): Promise<BackgroundReport> {
    return this.queue.finish(progress);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.queue.close();
    await this.tail.catch(() => undefined);
    await this.pool.end().catch(() => undefined);
    await this.options.embedder.close?.();
  }

  /** Passages stored by a run that ended before their vectors were made. */
  private async queueMissingVectors(): Promise<void> {
    const rows = await this.pool.query<{ hash: string; title: string; heading: string; text: string }>(
      `SELECT DISTINCT ON (c.hash) c.hash, n.title, c.heading, c.text FROM ${this.s}.chunks c JOIN ${this.s}.notes n ON n.id = c.note_id
       WHERE NOT EXISTS (SELECT 1 FROM ${this.s}.vectors v WHERE v.hash = c.hash)`,
    );
    for (const row of rows.rows) this.queue.add(row.hash, embeddedText(row.title, row.heading, row.text), false);
  }

  /** Notes' passages and keywords in one transaction; passages whose text has no vector yet are queued. */
  private async write(notes: readonly Note[], urgent: boolean): Promise<void> {
    if (notes.length === 0) return;
    const planned = notes.map((note) => ({
      note,
      passages: passagesOf(note, this.options.maxChunkChars ?? DEFAULT_CHUNK_CHARS),
    }));
    const dropped = await this.transaction(async (client) => {
      const old = await this.forget(
        client,
        notes.map((n) => n.id),
        false,
      );
      const rows = {
        id: [] as string[],
        title: [] as string[],
        type: [] as Array<string | null>,
        updated: [] as string[],
        hash: [] as string[],
      };
      const chunks = {
        note: [] as string[],
        seq: [] as number[],
        hash: [] as string[],
        heading: [] as string[],
        text: [] as string[],
        title: [] as string[],
        fHeading: [] as string[],
        fText: [] as string[],
      };
      for (const { note, passages } of planned) {
        rows.id.push(note.id);
        rows.title.push(note.title);
        rows.type.push(note.type ?? null);
        rows.updated.push(note.updated);
        rows.hash.push(note.contentHash);
        passages.forEach((passage, seq) => {
          chunks.note.push(note.id);
          chunks.seq.push(seq);
          chunks.hash.push(passage.hash);
          chunks.heading.push(passage.heading);
          chunks.text.push(passage.text);
          const [title, heading, text] = tsvectorTexts(note.title, passage.heading, passage.text);
          chunks.title.push(title);
          chunks.fHeading.push(heading);
          chunks.fText.push(text);
        });
      }
      await client.query(
        `INSERT INTO ${this.s}.notes (id, title, type, updated, content_hash) SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[])`,
        [rows.id, rows.title, rows.type, rows.updated, rows.hash],
      );
      await client.query(
        `INSERT INTO ${this.s}.chunks (note_id, seq, hash, heading, text, tsv)
         SELECT n, q, h, hd, t, ${tsvectorOf(this.s, 'ft', 'fh', 'fx')}
         FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[]) AS u(n, q, h, hd, t, ft, fh, fx)`,
        [
          chunks.note,
          chunks.seq,
          chunks.hash,
          chunks.heading,
          chunks.text,
          chunks.title,
          chunks.fHeading,
          chunks.fText,
        ],
      );
      // After the new rows: a text the note kept keeps its vector.
      return this.dropOrphans(client, old);
    });
    for (const hash of dropped) this.queue.forget(hash);
    const hashes = [...new Set(planned.flatMap((p) => p.passages.map((passage) => passage.hash)))];
    const have = new Set(
      (
        await this.pool.query<{ hash: string }>(`SELECT hash FROM ${this.s}.vectors WHERE hash = ANY($1::text[])`, [
          hashes,
        ])
      ).rows.map((r) => r.hash),
    );
    for (const passage of planned.flatMap((p) => p.passages))
      if (!have.has(passage.hash)) this.queue.add(passage.hash, passage.embedded, urgent);
  }

  /** Deletes notes (their chunks cascade); returns the hashes their passages held (`dropOrphans`: those no passage holds now). */
  private async forget(client: PgClient, ids: string[], dropOrphans = true): Promise<string[]> {
    const old = (
      await client.query<{ hash: string }>(
        `SELECT DISTINCT hash FROM ${this.s}.chunks WHERE note_id = ANY($1::text[])`,
        [ids],
      )
    ).rows.map((r) => r.hash);
    await client.query(`DELETE FROM ${this.s}.notes WHERE id = ANY($1::text[])`, [ids]);
    return dropOrphans ? this.dropOrphans(client, old) : old;
  }

  /** Deletes the vectors of these texts that no passage holds any more; returns those texts' hashes. */
  private async dropOrphans(client: PgClient, hashes: string[]): Promise<string[]> {
    if (hashes.length === 0) return [];
    const unused = (
      await client.query<{ h: string }>(
        `SELECT h FROM unnest($1::text[]) AS u(h) WHERE NOT EXISTS (SELECT 1 FROM ${this.s}.chunks c WHERE c.hash = u.h)`,
        [hashes],
      )
    ).rows.map((r) => r.h);
    if (unused.length) await client.query(`DELETE FROM ${this.s}.vectors WHERE hash = ANY($1::text[])`, [unused]);
    return unused;
  }

  /** A finished batch, kept for the passages that still hold its texts. */
  private async storeVectors(hashes: string[], vectors: Float32Array[]): Promise<void> {
    if (this.closed) return;
    await this.pool.query(
      `INSERT INTO ${this.s}.vectors (hash, embedding)
       SELECT h, e::vector FROM unnest($1::text[], $2::text[]) AS u(h, e)
       WHERE EXISTS (SELECT 1 FROM ${this.s}.chunks c WHERE c.hash = u.h) ON CONFLICT (hash) DO NOTHING`,
      [hashes, vectors.map(vectorLiteral)],
    );
  }

  private async transaction<T>(run: (client: PgClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      const result = await run(client);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  }

  private exclusive<T>(run: () => Promise<T>): Promise<T> {
    const result = this.tail.then(run, run);
    this.tail = result.catch(() => undefined);
    return result;
  }
}
