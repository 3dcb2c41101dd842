/**
 * The postgres engine against the embedded one on the same notes and the same (hashed) embedder:
 * each mode returns the same notes in the same order, hybrid is the toolkit's RRF of its own two
 * legs, a reopened index keeps its vectors and re-embeds only changed passages, and keywords
 * answer before any vector exists. Needs NOTEKERNEL_TEST_PG_URL (`.ci/postgres start`); skipped
 * without it, saying why, except under CI=true.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HybridSearchIndex } from '../../../backends/hybrid-search/hybrid-index.js';
import { PgHybridIndex } from '../../../backends/hybrid-search/postgres/pg-index.js';
import type { ReconcileSource, SearchIndex, SearchMode } from '../../../kernel/backend.js';
import type { Note, NoteSummary } from '../../../kernel/note.js';
import type { Embedder } from '../../../toolkit/embedding/embedder.js';
import { hashedEmbedder } from '../../../toolkit/embedding/hashed-embedder.js';
import { dropSchema, freshSchema, PG_URL, postgresUnavailable } from '../../support/postgres.js';

const unavailable = postgresUnavailable();
if (unavailable && process.env.CI !== 'true') console.warn(`SKIPPED: postgres engine tests: ${unavailable}.`);

const note = (id: string, title: string, content: string, type = 'general'): Note => ({
  id,
  title,
  content,
  tags: [],
  metadata: {},
  created: '2026-01-01T00:00:00.000Z',
  updated: `2026-01-0${id.length}T00:00:00.000Z`,
  type,
  contentHash: `sha256:${id}:${content.length}`,
});

const NOTES = [
  note(
    'a',
    'Harbour ferry',
    'The ferry crosses the harbour at dawn.\n\n## Tickets\n\nBuy tickets at the kiosk by the pier.',
  ),
  note('b', 'Ferry timetable', 'Winter timetable for the island ferry.'),
  note('c', 'Harbour walls', 'Storm damage to the harbour walls.', 'journal'),
  note('d', 'Island bakery', 'Fresh bread on the island every morning; the ferry brings flour.'),
  note('e', 'Café crème', 'Tasting notes from the café by the old harbour wall.'),
];

const source = (notes: Note[]): ReconcileSource => ({
  list: async () => notes.map(({ content: _c, ...summary }) => summary as NoteSummary),
  get: async (id) => notes.find((n) => n.id === id),
});

function counting(inner: Embedder): Embedder & { texts: string[] } {
  const texts: string[] = [];
  return {
    id: inner.id,
    dim: inner.dim,
    texts,
    embed: async (batch) => (texts.push(...batch.filter((t) => t.includes('\n'))), inner.embed(batch)),
  };
}

describe.skipIf(unavailable !== undefined && process.env.CI !== 'true')('hybrid-search postgres engine', () => {
  const schema = freshSchema();
  let pg: PgHybridIndex;
  let embedded: HybridSearchIndex;
  const ids = async (index: SearchIndex, text: string, mode: SearchMode, extra: { type?: string } = {}) =>
    (await index.search({ text, limit: 10, mode, ...extra })).hits.map((h) => h.id);

  beforeAll(async () => {
    if (unavailable) throw new Error(`CI must run the postgres engine tests, but ${unavailable}.`);
    pg = await PgHybridIndex.open({ url: PG_URL!, schema, embedder: hashedEmbedder() });
    embedded = new HybridSearchIndex({ file: ':memory:', embedder: hashedEmbedder() });
    for (const index of [pg, embedded]) {
      await index.reconcile(source(NOTES));
      await index.finishBackground();
    }
  });
  afterAll(async () => {
    await pg?.close();
    await embedded?.close();
    if (!unavailable) await dropSchema(schema);
  });

  it('answers every mode as the embedded engine does', async () => {
    for (const text of [
      'harbour ferry',
      'ferry',
      'island flour',
      'cafe',
      'harbour -storm',
      'tick*',
      '"island ferry"',
      'volcano',
    ]) {
      for (const mode of ['keyword', 'semantic', 'hybrid'] as const) {
        expect(await ids(pg, text, mode), `${mode}: ${text}`).toEqual(await ids(embedded, text, mode));
      }
    }
    expect(await ids(pg, 'harbour', 'hybrid', { type: 'journal' })).toEqual(['c']);
    expect(await ids(pg, '', 'hybrid')).toEqual(await ids(embedded, '', 'hybrid'));
  });

  it('marks the query words in the passage as written', async () => {
    const page = await pg.search({ text: 'cafe', limit: 5, mode: 'keyword' });
    expect(page.hits[0]?.snippet).toContain('<mark>café</mark>');
  });

  it('keeps its vectors across a reopen and re-embeds only the edited passage', async () => {
    const embedder = counting(hashedEmbedder());
    const reopened = await PgHybridIndex.open({ url: PG_URL!, schema, embedder });
    try {
      const edited = NOTES.map((n) =>
        n.id === 'a' ? { ...n, content: n.content.replace('kiosk', 'window'), contentHash: 'sha256:a:edited' } : n,
      );
      expect(await reopened.reconcile(source(edited))).toEqual({ upserted: 1, removed: 0, unchanged: 4 });
      await reopened.finishBackground();
      expect(embedder.texts).toEqual(['Harbour ferry\nTickets\nBuy tickets at the window by the pier.']);
      expect(await ids(reopened, 'window', 'keyword')).toEqual(['a']);
      expect(await reopened.reconcile(source(edited.filter((n) => n.id !== 'e')))).toEqual({
        upserted: 0,
        removed: 1,
        unchanged: 4,
      });
      expect(await ids(reopened, 'cafe', 'hybrid')).toEqual([]);
    } finally {
      await reopened.close();
    }
  });

  it('answers by keyword before the vectors exist, and says how far they are', async () => {
    const other = freshSchema();
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const inner = hashedEmbedder();
    const slow: Embedder = {
      id: inner.id,
      dim: inner.dim,
      embed: async (texts) =>
        texts.some((t) => t.includes('\n')) ? (await gate, inner.embed(texts)) : inner.embed(texts),
    };
    const index = await PgHybridIndex.open({ url: PG_URL!, schema: other, embedder: slow, vectorWaitMs: 20 });
    try {
      await index.reconcile(source(NOTES));
      expect(await ids(index, 'ferry', 'keyword')).toEqual(await ids(embedded, 'ferry', 'keyword'));
      const page = await index.search({ text: 'ferry', limit: 10 });
      expect(page.vectors).toEqual({ ready: 0, total: 6 });
      expect(page.notice).toMatch(/0 of 6 passages/);
      release();
      await index.finishBackground();
      expect((await index.search({ text: 'ferry', limit: 10 })).notice).toBeUndefined();
    } finally {
      await index.close();
      await dropSchema(other);
    }
  });
});
