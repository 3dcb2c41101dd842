/**
 * The postgres engine with its vectors from an OpenAI-compatible endpoint (a real HTTP server on
 * 127.0.0.1): another model re-embeds every passage at the next open, and a stopped endpoint
 * leaves search answering by keyword with a notice (decision 036). Needs NOTEKERNEL_TEST_PG_URL
 * (`.ci/postgres start`); skipped without it, saying why, except under CI=true.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PgHybridIndex } from '../../../backends/hybrid-search/postgres/pg-index.js';
import type { ReconcileSource } from '../../../kernel/backend.js';
import type { Note, NoteSummary } from '../../../kernel/note.js';
import { httpEmbedder } from '../../../toolkit/embedding/http-embedder.js';
import { FakeEmbeddingEndpoint } from '../../support/fake-embedding-endpoint.js';
import { dropSchema, freshSchema, PG_URL, postgresUnavailable } from '../../support/postgres.js';

const unavailable = postgresUnavailable();
if (unavailable && process.env.CI !== 'true')
  console.warn(`SKIPPED: postgres endpoint-embedder tests: ${unavailable}.`);

const note = (id: string, title: string, content: string): Note => ({
  id,
  title,
  content,
  tags: [],
  metadata: {},
  created: '2026-01-01T00:00:00.000Z',
  updated: '2026-01-01T00:00:00.000Z',
  contentHash: `sha256:${id}:${content.length}`,
});

const NOTES = [
  note('ferry.md', 'Ferry', 'The harbour ferry leaves for the island at dawn.'),
  note('bread.md', 'Bread', 'Feed the sourdough starter twice a day.'),
  note('taxes.md', 'Taxes', 'Receipts go to the accountant in April.'),
];

const source: ReconcileSource = {
  list: async () => NOTES.map(({ content: _c, ...summary }) => summary as NoteSummary),
  get: async (id) => NOTES.find((n) => n.id === id),
};

describe.skipIf(unavailable !== undefined && process.env.CI !== 'true')(
  'postgres engine with an endpoint embedder',
  () => {
    const schema = freshSchema();
    const endpoint = new FakeEmbeddingEndpoint(32);
    // A wait for vectors longer than the test's own timeout: a search that sat it out would fail the test.
    const open = (model: string) =>
      PgHybridIndex.open({
        url: PG_URL!,
        schema,
        embedder: httpEmbedder({ url: endpoint.baseUrl, model, dimension: 32, timeoutMs: 2_000 }),
        vectorWaitMs: 3_600_000,
      });
    const passagesSent = (model: string) => endpoint.texts(model).filter((t) => t.includes('\n'));

    beforeAll(async () => {
      if (unavailable) throw new Error(`CI must run the postgres engine tests, but ${unavailable}.`);
      await endpoint.start();
    });
    afterAll(async () => {
      await endpoint.stop();
      if (!unavailable) await dropSchema(schema);
    });

    it('re-embeds when the model changes, and answers by keyword with a notice while the endpoint is down', async () => {
      const first = await open('bow-a');
      await first.reconcile(source);
      await first.finishBackground();
      expect((await first.search({ text: 'island ferry', limit: 3, mode: 'semantic' })).hits[0]?.id).toBe('ferry.md');
      await first.close();
      expect(passagesSent('bow-a')).toHaveLength(3);

      const second = await open('bow-b');
      try {
        expect((await second.reconcile(source)).upserted).toBe(3);
        await second.finishBackground();
        expect(passagesSent('bow-b')).toHaveLength(3);

        await endpoint.stop();
        const page = await second.search({ text: 'sourdough starter', limit: 3 });
        expect(page.hits.map((h) => h.id)).toEqual(['bread.md']);
        expect(page.notice).toMatch(
          /^Search by meaning is unavailable \(.*could not be reached.*\): these are keyword matches only\.$/,
        );
        expect(page.vectors).toBeUndefined();
      } finally {
        await second.close();
      }
    });
  },
);
