/**
 * The database's shape as a numbered list of migrations, applied in order at every open (and by
 * `notekernel migrate-db`), each inside one transaction under an advisory lock, so many processes
 * opening one database at once apply each step exactly once and the rest wait, then find it done.
 * A migration is never edited once released: a change is a new entry at the end. A database whose
 * version is past this list (written by a newer notekernel) is refused rather than guessed at.
 */
import { BackendUnavailableError } from '../../kernel/errors.js';
import { type PgPool, inTransaction } from './driver.js';

export const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export interface Migration {
  version: number;
  description: string;
  /** Statements run in order; `S` is the quoted schema. */
  up(S: string): string[];
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'notes, the operation journal and the change feed, per vault',
    up: (S) => [
      // Titles and bodies are searched as folded words (toolkit/search/fold-letters), stemmed
      // by Snowball's English stemmer with no stop words: the kernel drops a question's own.
      `CREATE TEXT SEARCH DICTIONARY ${S}.english_stems (TEMPLATE = snowball, Language = english)`,
      `CREATE TEXT SEARCH CONFIGURATION ${S}.stemmed (COPY = simple)`,
      `ALTER TEXT SEARCH CONFIGURATION ${S}.stemmed ALTER MAPPING FOR asciiword, word, numword, asciihword, hword, numhword, hword_asciipart, hword_part, hword_numpart WITH ${S}.english_stems`,
      // Text read as an instant, or NULL when it is not one (a metadata value that only looks like a date).
      `CREATE FUNCTION ${S}.instant(value text) RETURNS timestamptz LANGUAGE plpgsql STABLE AS $f$
        BEGIN RETURN value::timestamptz; EXCEPTION WHEN others THEN RETURN NULL; END $f$`,
      `CREATE TABLE ${S}.notes (
        vault text NOT NULL,
        id text NOT NULL,
        type text NOT NULL,
        title text NOT NULL,
        body text NOT NULL,
        text text NOT NULL,
        metadata json NOT NULL DEFAULT '{}',
        tags text[] NOT NULL DEFAULT '{}',
        content_hash text NOT NULL,
        size integer NOT NULL,
        created text NOT NULL,
        updated text NOT NULL,
        tsv tsvector NOT NULL,
        PRIMARY KEY (vault, id))`,
      `CREATE INDEX notes_type ON ${S}.notes (vault, type)`,
      `CREATE INDEX notes_updated ON ${S}.notes (vault, updated DESC, id)`,
      `CREATE INDEX notes_tsv ON ${S}.notes USING gin (tsv)`,
      `CREATE TABLE ${S}.journal (
        vault text NOT NULL,
        id text NOT NULL,
        state text NOT NULL,
        owner text NOT NULL,
        entry jsonb NOT NULL,
        PRIMARY KEY (vault, id))`,
      `CREATE TABLE ${S}.journal_steps (
        vault text NOT NULL,
        entry_id text NOT NULL,
        step integer NOT NULL,
        result jsonb NOT NULL,
        PRIMARY KEY (vault, entry_id, step))`,
      // The feed: read in (xid, seq) order below the oldest transaction still running, so a
      // change is never passed over while an earlier-numbered one is in flight (change-feed.ts).
      `CREATE TABLE ${S}.changes (
        seq bigserial PRIMARY KEY,
        vault text NOT NULL,
        note_id text NOT NULL,
        kind text NOT NULL,
        origin text NOT NULL,
        previous jsonb,
        at timestamptz NOT NULL DEFAULT now(),
        xid xid8 NOT NULL DEFAULT pg_current_xact_id())`,
      `CREATE INDEX changes_feed ON ${S}.changes (vault, xid, seq)`,
    ],
  },
  {
    version: 2,
    description:
      'the embedding queue: which notes have passages embedded from their current text, and leases on the ones being embedded',
    up: (S) => [
      // The content hash a note's passages were embedded from: a note is waiting for its vectors
      // while this differs from content_hash, so every write, by any host and whether or not it
      // embeds, queues the note by changing its hash (vectors.ts). Adding a column without a
      // default rewrites no rows.
      `ALTER TABLE ${S}.notes ADD COLUMN embedded_hash text`,
      // Only the waiting notes, newest first: what the embedding workers claim from.
      `CREATE INDEX notes_unembedded ON ${S}.notes (vault, updated DESC) WHERE embedded_hash IS DISTINCT FROM content_hash`,
      // A note being embedded by a process until `until`; past it (the process died) another takes it.
      `CREATE TABLE ${S}.embed_leases (
        vault text NOT NULL,
        note_id text NOT NULL,
        owner text NOT NULL,
        until timestamptz NOT NULL,
        PRIMARY KEY (vault, note_id))`,
    ],
  },
];

export const LATEST_VERSION = MIGRATIONS.at(-1)!.version;

export interface MigrationReport {
  from: number;
  to: number;
  applied: Array<{ version: number; description: string }>;
}

/** The version the schema is at (0: none), without changing anything. */
export async function schemaVersion(pool: PgPool, schema: string): Promise<number> {
  const found = await pool.query<{ v: number | null }>(
    `SELECT CASE WHEN to_regclass($1) IS NULL THEN NULL ELSE 1 END AS v`,
    [`"${schema}".schema_version`],
  );
  if (found.rows[0]?.v == null) return 0;
  const rows = await pool.query<{ v: number | null }>(`SELECT max(version) AS v FROM "${schema}".schema_version`);
  return rows.rows[0]?.v ?? 0;
}

/** Brings the schema to the latest version; a no-op (one short lock) when it is there already. */
export async function migrate(pool: PgPool, schema: string): Promise<MigrationReport> {
  if (!SCHEMA_NAME.test(schema)) throw new Error(`schema "${schema}" is not a plain lower-case SQL name`);
  const S = `"${schema}"`;
  return inTransaction(pool, async (client) => {
    // A migration over many rows may take longer than a call may: no statement limit here.
    await client.query('SET LOCAL statement_timeout = 0');
    // Every process opening this schema queues here; the first applies, the others find it done.
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`notekernel-migrate:${schema}`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${S}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${S}.schema_version (version integer PRIMARY KEY, description text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const from =
      (await client.query<{ v: number | null }>(`SELECT max(version) AS v FROM ${S}.schema_version`)).rows[0]?.v ?? 0;
    if (from > LATEST_VERSION)
      throw new BackendUnavailableError(
        `The database schema "${schema}" is at version ${from}, newer than this notekernel knows (${LATEST_VERSION}): upgrade notekernel.`,
        { backend: 'postgres', schema_version: from, known_version: LATEST_VERSION },
      );
    const applied: MigrationReport['applied'] = [];
    for (const migration of MIGRATIONS) {
      if (migration.version <= from) continue;
      for (const statement of migration.up(S)) await client.query(statement);
      await client.query(`INSERT INTO ${S}.schema_version (version, description) VALUES ($1, $2)`, [
        migration.version,
        migration.description,
      ]);
      applied.push({ version: migration.version, description: migration.description });
    }
    return { from, to: Math.max(from, LATEST_VERSION), applied };
  });
}
