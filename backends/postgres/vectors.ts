/**
 * A vault's passage vectors, beside its notes (issue 30): `passages` holds each note's passages
 * (toolkit/embedding/passages.ts, as hybrid-search cuts them) with their pgvector embedding, and
 * goes with its note (a foreign key, cascading), so a deleted note is gone from meaning search in
 * the very transaction that deletes it. The model never runs inside a transaction: a note waits
 * for its vectors while `notes.embedded_hash` differs from its `content_hash` (migration 2), and
 * every process that serves vectors works that queue (`EmbedWorker`), claiming a few notes at a
 * time under a lease, embedding them with no transaction open, then storing their passages in a
 * short one that checks the note still has the text it embedded. Decision 048 has the figures.
 */
import { ConfigError } from '../../kernel/errors.js';
import type { Logger } from '../../kernel/index.js';
import { type Embedder, embedInBatches } from '../../toolkit/embedding/embedder.js';
import { passagesOf } from '../../toolkit/embedding/passages.js';
import { type PgPool, inTransaction } from './driver.js';

/** The table's shape for this embedder: `vector` with the schema's extension, then the embedder recorded. */
export async function ensureVectorTable(pool: PgPool, schema: string, embedder: Embedder): Promise<void> {
  const S = `"${schema}"`;
  const key = `${embedder.id}/${embedder.dim}`;
  // Set up already: nothing to create, so a serving role without CREATE rights opens it.
  const found = await pool.query<{ t: string | null }>('SELECT to_regclass($1)::text AS t', [`${S}.vector_settings`]);
  if (found.rows[0]?.t) {
    const stored = (
      await pool.query<{ value: string }>(`SELECT value FROM ${S}.vector_settings WHERE key = 'embedder'`)
    ).rows[0]?.value;
    if (stored === key) return;
  }
  await inTransaction(pool, async (client) => {
    await client.query('SET LOCAL statement_timeout = 0');
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`notekernel-vectors:${schema}`]);
    await client.query('CREATE EXTENSION IF NOT EXISTS vector');
    await client.query(`CREATE TABLE IF NOT EXISTS ${S}.vector_settings (key text PRIMARY KEY, value text NOT NULL)`);
    const stored = (
      await client.query<{ value: string }>(`SELECT value FROM ${S}.vector_settings WHERE key = 'embedder'`)
    ).rows[0]?.value;
    // One embedder per schema: vectors of two models are not comparable, and two hosts set up
    // differently must not take turns wiping each other's vectors.
    if (stored !== undefined && stored !== key)
      throw new ConfigError(
        `The vectors in schema "${schema}" were made by ${stored}; this process is set up with ${key}. Use the same embedder on every host, or drop the old vectors (DROP TABLE ${S}.passages, ${S}.vector_settings; UPDATE ${S}.notes SET embedded_hash = NULL) to embed again.`,
        { schema, stored, configured: key },
      );
    if (stored !== undefined) return;
    await client.query(`INSERT INTO ${S}.vector_settings (key, value) VALUES ('embedder', $1)`, [key]);
    await client.query(`UPDATE ${S}.notes SET embedded_hash = NULL WHERE embedded_hash IS NOT NULL`);
    await client.query(`CREATE TABLE ${S}.passages (
      vault text NOT NULL,
      note_id text NOT NULL,
      seq integer NOT NULL,
      hash text NOT NULL,
      heading text NOT NULL,
      text text NOT NULL,
      embedding vector(${embedder.dim}) NOT NULL,
      PRIMARY KEY (vault, note_id, seq),
      FOREIGN KEY (vault, note_id) REFERENCES ${S}.notes (vault, id) ON DELETE CASCADE ON UPDATE CASCADE)`);
    await client.query(`CREATE INDEX passages_hash ON ${S}.passages (vault, hash)`);
    await client.query(`CREATE INDEX passages_hnsw ON ${S}.passages USING hnsw (embedding vector_cosine_ops)`);
  });
}

/** pgvector's text form of a vector. */
export function vectorLiteral(vector: Float32Array): string {
  return `[${Array.from(vector).join(',')}]`;
}

export interface EmbedWorkerOptions {
  pool: PgPool;
  S: string;
  vault: string;
  embedder: Embedder;
  /** This process, as the leases name it. */
  owner: string;
  logger: Logger;
  /** Notes claimed at a time. */
  batch?: number;
  /** How long a claim holds before another process may take the note (a process that died). */
  leaseSeconds?: number;
}

interface Claimed {
  id: string;
  title: string;
  body: string;
  content_hash: string;
}

/** Works the vault's embedding queue until it is empty; `wake()` after anything may have queued a note. */
export class EmbedWorker {
  private running: Promise<void> | undefined;
  private again = false;
  private closed = false;
  /** Notes this process embedded since it opened. */
  done = 0;
  /** The embedder's last failure, until a batch succeeds again. */
  failure: string | undefined;

  constructor(private readonly o: EmbedWorkerOptions) {}

  /** Drains the queue in the background (one run at a time; a wake during a run makes it go round again). */
  wake(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          while (!this.closed && (await this.step()) > 0);
        } while (this.again && !this.closed);
      } catch (err) {
        if (!this.closed) this.o.logger.warn({ err }, 'embedding queue: a batch failed; retried on the next wake');
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }

  /** Notes of the vault still waiting for vectors (claimed by any process or not). */
  async waiting(): Promise<number> {
    const { rows } = await this.o.pool.query<{ n: string }>(
      `SELECT count(*) AS n FROM ${this.o.S}.notes WHERE vault = $1 AND embedded_hash IS DISTINCT FROM content_hash`,
      [this.o.vault],
    );
    return Number(rows[0]!.n);
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.running;
  }

  /** One batch: claim, embed (no transaction open), store. Returns how many notes it claimed. */
  private async step(): Promise<number> {
    const claimed = await this.claim();
    if (claimed.length === 0) return 0;
    try {
      const planned = claimed.map((note) => ({
        note,
        passages: passagesOf({ title: note.title, content: note.body }),
      }));
      const vectors = await this.vectorsFor(
        [...new Set(planned.flatMap((p) => p.passages.map((x) => x.hash)))],
        planned,
      );
      await this.store(planned, vectors);
      this.failure = undefined;
      return claimed.length;
    } catch (err) {
      this.failure = err instanceof Error ? err.message : String(err);
      await this.release(claimed.map((c) => c.id)).catch(() => undefined);
      throw err;
    }
  }

  /**
   * Leases up to `batch` waiting notes, newest first. Rows a writer holds are skipped (`SKIP
   * LOCKED`), and a note leased by another process is taken only once its lease ran out: the
   * `ON CONFLICT … WHERE` re-checks the lease row another claim may have just written.
   */
  private async claim(): Promise<Claimed[]> {
    const { S, vault } = this.o;
    const { rows } = await this.o.pool.query<Claimed>(
      `WITH waiting AS (
         SELECT n.id FROM ${S}.notes n
         WHERE n.vault = $1 AND n.embedded_hash IS DISTINCT FROM n.content_hash
           AND NOT EXISTS (SELECT 1 FROM ${S}.embed_leases l WHERE l.vault = n.vault AND l.note_id = n.id AND l.until > now())
         ORDER BY n.updated DESC LIMIT $2 FOR UPDATE OF n SKIP LOCKED),
       leased AS (
         INSERT INTO ${S}.embed_leases (vault, note_id, owner, until)
         SELECT $1, id, $3, now() + make_interval(secs => $4) FROM waiting
         ON CONFLICT (vault, note_id) DO UPDATE SET owner = excluded.owner, until = excluded.until
           WHERE ${S}.embed_leases.until <= now()
         RETURNING note_id)
       SELECT n.id, n.title, n.body, n.content_hash FROM ${S}.notes n JOIN leased ON leased.note_id = n.id WHERE n.vault = $1`,
      [vault, this.o.batch ?? 16, this.o.owner, this.o.leaseSeconds ?? 120],
    );
    return rows;
  }

  /** Each passage text's vector: one the vault already holds for the same text, else the embedder's. */
  private async vectorsFor(hashes: string[], planned: Array<{ passages: ReturnType<typeof passagesOf> }>) {
    const { rows } = await this.o.pool.query<{ hash: string; embedding: string }>(
      `SELECT DISTINCT ON (hash) hash, embedding::text AS embedding FROM ${this.o.S}.passages WHERE vault = $1 AND hash = ANY($2::text[])`,
      [this.o.vault, hashes],
    );
    const vectors = new Map(rows.map((r) => [r.hash, r.embedding]));
    const missing = new Map<string, string>();
    for (const passage of planned.flatMap((p) => p.passages))
      if (!vectors.has(passage.hash)) missing.set(passage.hash, passage.embedded);
    const made = await embedInBatches(this.o.embedder, [...missing.values()]);
    [...missing.keys()].forEach((hash, i) => vectors.set(hash, vectorLiteral(made[i]!)));
    return vectors;
  }

  /** The passages of the notes whose text is still what was embedded; the rest wait for the next round. */
  private async store(
    planned: Array<{ note: Claimed; passages: ReturnType<typeof passagesOf> }>,
    vectors: Map<string, string>,
  ): Promise<void> {
    const { S, vault } = this.o;
    await inTransaction(this.o.pool, async (client) => {
      const current = new Set(
        (
          await client.query<{ id: string }>(
            `SELECT n.id FROM ${S}.notes n JOIN unnest($2::text[], $3::text[]) AS u(id, h) ON n.id = u.id AND n.content_hash = u.h
             WHERE n.vault = $1 FOR UPDATE OF n`,
            [vault, planned.map((p) => p.note.id), planned.map((p) => p.note.content_hash)],
          )
        ).rows.map((r) => r.id),
      );
      const kept = planned.filter((p) => current.has(p.note.id));
      const rows = kept.flatMap((p) =>
        p.passages.map((x, seq) => [p.note.id, seq, x.hash, x.heading, x.text, vectors.get(x.hash)!] as const),
      );
      await client.query(`DELETE FROM ${S}.passages WHERE vault = $1 AND note_id = ANY($2::text[])`, [
        vault,
        kept.map((p) => p.note.id),
      ]);
      await client.query(
        `INSERT INTO ${S}.passages (vault, note_id, seq, hash, heading, text, embedding)
         SELECT $1, n, q, h, hd, t, e::vector FROM unnest($2::text[], $3::int[], $4::text[], $5::text[], $6::text[], $7::text[]) AS u(n, q, h, hd, t, e)`,
        [vault, ...[0, 1, 2, 3, 4, 5].map((k) => rows.map((r) => r[k]))],
      );
      // Rows locked above with the text embedded: a note written since was left out and keeps waiting.
      await client.query(
        `UPDATE ${S}.notes n SET embedded_hash = n.content_hash WHERE n.vault = $1 AND n.id = ANY($2::text[])`,
        [vault, kept.map((p) => p.note.id)],
      );
      await client.query(
        `DELETE FROM ${S}.embed_leases WHERE vault = $1 AND note_id = ANY($2::text[]) AND owner = $3`,
        [vault, planned.map((p) => p.note.id), this.o.owner],
      );
    });
    this.done += planned.length;
  }

  private async release(ids: string[]): Promise<void> {
    await this.o.pool.query(
      `DELETE FROM ${this.o.S}.embed_leases WHERE vault = $1 AND note_id = ANY($2::text[]) AND owner = $3`,
      [this.o.vault, ids, this.o.owner],
    );
  }
}
