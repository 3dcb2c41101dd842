/**
 * The postgres engine's tables, in a schema of their own per vault: notes (the hash reconcile
 * compares), chunks with a weighted `tsvector` (title A, heading B, text D, built from folded
 * text so case and diacritics never matter), and vectors keyed by the hash of the text they
 * embed, under a pgvector HNSW index (cosine). `meta` records the embedder; another embedder (or
 * dimension) drops every row, and the next reconcile re-embeds.
 */
import type { PgPool } from './pg-driver.js';

export const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export async function ensureSchema(pool: PgPool, schema: string, embedderKey: string, dim: number): Promise<void> {
  const s = `"${schema}"`;
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    // Two processes opening one vault at once would race on CREATE: one waits for the other.
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`notekernel:${schema}`]);
    await client.query('CREATE EXTENSION IF NOT EXISTS vector');
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${s}.meta (key text PRIMARY KEY, value text NOT NULL)`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${s}.notes (id text PRIMARY KEY, title text NOT NULL, type text, updated text NOT NULL, content_hash text NOT NULL)`,
    );
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${s}.chunks (id bigserial PRIMARY KEY, note_id text NOT NULL REFERENCES ${s}.notes (id) ON DELETE CASCADE,
        seq int NOT NULL, hash text NOT NULL, heading text NOT NULL, text text NOT NULL, tsv tsvector NOT NULL)`,
    );
    await client.query(`CREATE INDEX IF NOT EXISTS chunks_tsv ON ${s}.chunks USING gin (tsv)`);
    await client.query(`CREATE INDEX IF NOT EXISTS chunks_note ON ${s}.chunks (note_id)`);
    await client.query(`CREATE INDEX IF NOT EXISTS chunks_hash ON ${s}.chunks (hash)`);
    const stored = (await client.query<{ value: string }>(`SELECT value FROM ${s}.meta WHERE key = 'embedder'`)).rows[0]?.value;
    if (stored !== embedderKey) {
      await client.query(`DROP TABLE IF EXISTS ${s}.vectors`);
      await client.query(`DELETE FROM ${s}.notes`);
      await client.query(`INSERT INTO ${s}.meta (key, value) VALUES ('embedder', $1) ON CONFLICT (key) DO UPDATE SET value = excluded.value`, [embedderKey]);
    }
    await client.query(`CREATE TABLE IF NOT EXISTS ${s}.vectors (hash text PRIMARY KEY, embedding vector(${dim}) NOT NULL)`);
    await client.query(`CREATE INDEX IF NOT EXISTS vectors_hnsw ON ${s}.vectors USING hnsw (embedding vector_cosine_ops)`);
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

/** pgvector's text form of a vector. */
export function vectorLiteral(vector: Float32Array): string {
  return `[${Array.from(vector).join(',')}]`;
}
