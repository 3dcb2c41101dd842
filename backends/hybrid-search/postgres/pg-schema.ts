/**
 * The postgres engine's tables, in a schema of their own per vault: notes (the hash reconcile
 * compares), chunks with a weighted `tsvector` (title A, heading B, text D, built from folded
 * text — `foldWords`: case and letters, `Łódź` as `lodz` — so neither ever matters), and vectors
 * keyed by the hash of the text they embed, under a pgvector HNSW index (cosine). `meta` records
 * the embedder; another embedder (or dimension) drops every row, and the next reconcile
 * re-embeds. `meta.keywords` records the folding the tsvectors were built with; chunks built
 * with another are re-keyed at open from their stored text, their vectors kept.
 */
import { foldWords } from '../../../toolkit/search/fold-letters.js';
import type { PgClient, PgPool } from './pg-driver.js';

export const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

/**
 * What `meta.keywords` says the tsvectors hold. Absent: case and accents folded only (before letter
 * folding); `letter-folded-1`: folded words as they are (`simple`). Now stemmed (`tsConfig`), as the
 * embedded engine stems with FTS5's porter (decision 037).
 */
const KEYWORDS = 'letter-folded-stemmed-1';

/**
 * The schema's text search configuration, of every tsvector and tsquery: `simple` with its words
 * stemmed by Snowball's English stemmer and no stop-word list, so a passage keeps the length and
 * the words that the embedded engine's porter tokenizer gives it (the kernel drops a question's
 * stop words itself).
 */
export function tsConfig(s: string): string {
  return `${s}.stemmed`;
}

async function ensureTsConfig(client: PgClient, schema: string, s: string): Promise<void> {
  const found = await client.query(
    'SELECT 1 FROM pg_ts_config c JOIN pg_namespace n ON n.oid = c.cfgnamespace WHERE n.nspname = $1 AND c.cfgname = $2',
    [schema, 'stemmed'],
  );
  if (found.rows.length) return;
  await client.query(`CREATE TEXT SEARCH DICTIONARY ${s}.english_stems (TEMPLATE = snowball, Language = english)`);
  await client.query(`CREATE TEXT SEARCH CONFIGURATION ${tsConfig(s)} (COPY = simple)`);
  await client.query(
    `ALTER TEXT SEARCH CONFIGURATION ${tsConfig(s)} ALTER MAPPING FOR asciiword, word, numword, asciihword, hword, numhword, hword_asciipart, hword_part, hword_numpart WITH ${s}.english_stems`,
  );
}
const REKEY_BATCH = 1_000;

/** A chunk's tsvector from its folded title, heading and text (SQL expressions). */
export function tsvectorOf(s: string, title: string, heading: string, text: string): string {
  const v = (sql: string) => `to_tsvector('${tsConfig(s)}', ${sql})`;
  return `setweight(${v(title)}, 'A') || setweight(${v(heading)}, 'B') || setweight(${v(text)}, 'D')`;
}

/** A chunk's title, heading and text as its tsvector is built from them. */
export function tsvectorTexts(title: string, heading: string, text: string): [string, string, string] {
  return [foldWords(title), foldWords(heading), foldWords(text)];
}

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
    const stored = (await client.query<{ value: string }>(`SELECT value FROM ${s}.meta WHERE key = 'embedder'`)).rows[0]
      ?.value;
    if (stored !== embedderKey) {
      await client.query(`DROP TABLE IF EXISTS ${s}.vectors`);
      await client.query(`DELETE FROM ${s}.notes`);
      await client.query(
        `INSERT INTO ${s}.meta (key, value) VALUES ('embedder', $1) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
        [embedderKey],
      );
    }
    await ensureTsConfig(client, schema, s);
    if (
      (await client.query<{ value: string }>(`SELECT value FROM ${s}.meta WHERE key = 'keywords'`)).rows[0]?.value !==
      KEYWORDS
    ) {
      await rekeyChunks(client, s);
      await client.query(
        `INSERT INTO ${s}.meta (key, value) VALUES ('keywords', $1) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
        [KEYWORDS],
      );
    }
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${s}.vectors (hash text PRIMARY KEY, embedding vector(${dim}) NOT NULL)`,
    );
    await client.query(
      `CREATE INDEX IF NOT EXISTS vectors_hnsw ON ${s}.vectors USING hnsw (embedding vector_cosine_ops)`,
    );
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

/** Every chunk's tsvector built again from its stored text and its note's title, a batch at a time. */
async function rekeyChunks(client: PgClient, s: string): Promise<void> {
  for (let after = 0; ; ) {
    const rows = (
      await client.query<{ id: string; title: string; heading: string; text: string }>(
        `SELECT c.id, n.title, c.heading, c.text FROM ${s}.chunks c JOIN ${s}.notes n ON n.id = c.note_id WHERE c.id > $1 ORDER BY c.id LIMIT ${REKEY_BATCH}`,
        [after],
      )
    ).rows;
    if (rows.length === 0) return;
    const folded = rows.map((r) => tsvectorTexts(r.title, r.heading, r.text));
    await client.query(
      `UPDATE ${s}.chunks c SET tsv = ${tsvectorOf(s, 'u.ft', 'u.fh', 'u.fx')}
       FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[]) AS u(id, ft, fh, fx) WHERE c.id = u.id`,
      [rows.map((r) => r.id), folded.map((f) => f[0]), folded.map((f) => f[1]), folded.map((f) => f[2])],
    );
    after = Number(rows.at(-1)!.id);
  }
}

/** pgvector's text form of a vector. */
export function vectorLiteral(vector: Float32Array): string {
  return `[${Array.from(vector).join(',')}]`;
}
