/**
 * Letter folding in the hybrid index's postgres engine: index and query fold alike (`lodz` finds
 * `Łódź`, `Łódź` finds `Lodz`), the snippet marks words as written, the answers are the embedded
 * engine's, and a schema whose tsvectors were built with the older folding (case and accents
 * only, no `meta.keywords`) is re-keyed at open from the stored passages, re-embedding nothing.
 * Needs NOTEKERNEL_TEST_PG_URL (`.ci/postgres start`); skipped without it, except under CI=true.
 */
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HybridSearchIndex } from '../../../backends/hybrid-search/hybrid-index.js';
import { PgHybridIndex } from '../../../backends/hybrid-search/postgres/pg-index.js';
import type { ReconcileSource, SearchIndex } from '../../../kernel/backend.js';
import type { Note, NoteSummary } from '../../../kernel/note.js';
import type { Embedder } from '../../../toolkit/embedding/embedder.js';
import { hashedEmbedder } from '../../../toolkit/embedding/hashed-embedder.js';
import { dropSchema, freshSchema, PG_URL, postgresUnavailable } from '../../support/postgres.js';

const unavailable = postgresUnavailable();
if (unavailable && process.env.CI !== 'true') console.warn(`SKIPPED: postgres folding tests: ${unavailable}.`);

const note = (id: string, title: string, content: string): Note => ({
  id,
  title,
  content,
  tags: [],
  metadata: {},
  created: '2026-01-01T00:00:00.000Z',
  updated: '2026-01-01T00:00:00.000Z',
  type: 'general',
  contentHash: `sha256:${id}`,
});

const NOTES = [
  note('lodz', 'Trip to Łódź', 'The Straße by the river, where Bjørn sailed to Ærø in a long boat.'),
  note('plain', 'Lodz in plain letters', 'Written without any accents at all.'),
  note('other', 'Groceries', 'Milk, bread and apples.'),
];
const source: ReconcileSource = {
  list: async () => NOTES.map(({ content: _c, ...summary }) => summary as NoteSummary),
  get: async (id) => NOTES.find((n) => n.id === id),
};

function counting(inner: Embedder): Embedder & { texts: string[] } {
  const texts: string[] = [];
  return { id: inner.id, dim: inner.dim, texts, embed: async (batch) => (texts.push(...batch), inner.embed(batch)) };
}

const QUERIES: Array<[string, string[]]> = [
  ['lodz', ['lodz', 'plain']],
  ['bjorn', ['lodz']],
  ['strasse', ['lodz']],
  ['aero', ['lodz']], // Ærø folds to `aero` (ø → o, as Bjørn → bjorn)
  ['Łódź', ['lodz', 'plain']],
  ['ŁÓDŹ AND plain', ['plain']],
  ['ŁÓDŹ plain', ['lodz', 'plain']], // a question: either word, the note holding both first
];

const ids = async (index: SearchIndex, text: string) =>
  (await index.search({ text, limit: 10, mode: 'keyword' })).hits.map((h) => h.id).sort();

describe.skipIf(unavailable !== undefined && process.env.CI !== 'true')('hybrid-search postgres engine folding', () => {
  const schema = freshSchema();
  let embedded: HybridSearchIndex;

  beforeAll(async () => {
    if (unavailable) throw new Error(`CI must run the postgres engine tests, but ${unavailable}.`);
    embedded = new HybridSearchIndex({ file: ':memory:', embedder: hashedEmbedder() });
    await embedded.reconcile(source);
  });
  afterAll(async () => {
    await embedded?.close();
    if (!unavailable) await dropSchema(schema);
  });

  it('finds the letters folded both ways, as the embedded engine does, and marks them as written', async () => {
    const pg = await PgHybridIndex.open({ url: PG_URL!, schema, embedder: hashedEmbedder() });
    try {
      await pg.reconcile(source);
      for (const [query, expected] of QUERIES) {
        expect(await ids(pg, query), query).toEqual(expected);
        expect(await ids(embedded, query), query).toEqual(expected);
      }
      const [hit] = (await pg.search({ text: 'strasse bjorn aero', limit: 5, mode: 'keyword' })).hits;
      expect(hit?.snippet).toBe(
        'The <mark>Straße</mark> by the river, where <mark>Bjørn</mark> sailed to <mark>Ærø</mark> in a long boat.',
      );
      await pg.finishBackground();
    } finally {
      await pg.close();
    }
  });

  it('re-keys tsvectors built with the older folding at open, embedding nothing', async () => {
    const { Pool } = createRequire(import.meta.url)('pg') as {
      Pool: new (c: {
        connectionString: string;
      }) => {
        query(q: string, v?: unknown[]): Promise<{ rows: Array<Record<string, unknown>> }>;
        end(): Promise<void>;
      };
    };
    const pool = new Pool({ connectionString: PG_URL! });
    const s = `"${schema}"`;
    try {
      // What an older notekernel left: case and accents folded only (`bjørn`, `łodz`, `straße`).
      const older = (text: string) => text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
      const rows = (
        await pool.query(
          `SELECT c.id, n.title, c.heading, c.text FROM ${s}.chunks c JOIN ${s}.notes n ON n.id = c.note_id`,
        )
      ).rows;
      for (const row of rows) {
        await pool.query(
          `UPDATE ${s}.chunks SET tsv = setweight(to_tsvector('simple', $2), 'A') || setweight(to_tsvector('simple', $3), 'B') || setweight(to_tsvector('simple', $4), 'D') WHERE id = $1`,
          [row.id, older(String(row.title)), older(String(row.heading)), older(String(row.text))],
        );
      }
      await pool.query(`DELETE FROM ${s}.meta WHERE key = 'keywords'`);
      expect(
        (await pool.query(`SELECT count(*)::int AS n FROM ${s}.chunks WHERE tsv @@ to_tsquery('simple', 'bjorn')`))
          .rows[0],
      ).toEqual({ n: 0 });
    } finally {
      await pool.end();
    }

    const embedder = counting(hashedEmbedder());
    const pg = await PgHybridIndex.open({ url: PG_URL!, schema, embedder });
    try {
      for (const [query, expected] of QUERIES) expect(await ids(pg, query), query).toEqual(expected);
      expect(await pg.reconcile(source)).toEqual({ upserted: 0, removed: 0, unchanged: 3 });
      await pg.finishBackground();
      expect(embedder.texts).toEqual([]);
    } finally {
      await pg.close();
    }
  });
});
