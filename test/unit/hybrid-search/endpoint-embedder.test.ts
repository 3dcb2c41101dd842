/**
 * The hybrid index with its vectors from an OpenAI-compatible endpoint (a real HTTP server on
 * 127.0.0.1): another model or dimension re-embeds every passage at the next open, the same one
 * none; an endpoint that stops answering leaves keyword search answering, with a notice, and the
 * queue picks up again when it is back (decision 036).
 */
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { HybridSearchIndex } from '../../../backends/hybrid-search/hybrid-index.js';
import type { ReconcileSource } from '../../../kernel/backend.js';
import type { Note, NoteSummary } from '../../../kernel/note.js';
import { httpEmbedder } from '../../../toolkit/embedding/http-embedder.js';
import { FakeEmbeddingEndpoint } from '../../support/fake-embedding-endpoint.js';
import { removeDir, tempDir } from '../../support/temp.js';

const note = (id: string, title: string, content: string): Note => ({
  id,
  title,
  content,
  metadata: {},
  tags: [],
  created: '2024-01-01T00:00:00.000Z',
  updated: '2024-01-01T00:00:00.000Z',
  contentHash: `${id}:${content.length}:${title}`,
});

const NOTES = [
  note('ferry.md', 'Ferry', 'The harbour ferry leaves for the island at dawn.'),
  note('bread.md', 'Bread', 'Feed the sourdough starter twice a day.'),
  note('taxes.md', 'Taxes', 'Receipts go to the accountant in April.'),
];

const source = (notes: Note[]): ReconcileSource => ({
  list: async () => notes.map(({ content: _content, ...summary }) => summary as NoteSummary),
  get: async (id) => notes.find((n) => n.id === id),
});

let endpoint: FakeEmbeddingEndpoint;
let dir: string;
const open: HybridSearchIndex[] = [];

beforeEach(async () => {
  endpoint = new FakeEmbeddingEndpoint(64);
  await endpoint.start();
  dir = await tempDir('nk-endpoint-');
});
afterEach(async () => {
  for (const index of open.splice(0)) await index.close();
  await endpoint.stop();
  await removeDir(dir);
});

function openIndex(model: string, dimension = 64, extra: { vectorWaitMs?: number } = {}): HybridSearchIndex {
  const embedder = httpEmbedder({ url: endpoint.baseUrl, model, dimension, batchSize: 2, timeoutMs: 2_000 });
  const index = new HybridSearchIndex({ file: path.join(dir, 'hybrid.db'), embedder, embedBatch: 2, ...extra });
  open.push(index);
  return index;
}

async function closeAll(): Promise<void> {
  for (const index of open.splice(0)) await index.close();
}

/** Passages the endpoint was asked to embed for `model` (a query is one line; a passage is its title, then its text). */
const passagesSent = (model: string) => endpoint.texts(model).filter((t) => t.includes('\n'));

describe('hybrid index with an endpoint embedder', () => {
  it('embeds through the endpoint, and embeds every passage again when the model or dimension changes — only then', async () => {
    const first = openIndex('bow-a');
    await first.reconcile(source(NOTES));
    expect((await first.finishBackground()).done).toBe(3);
    expect(passagesSent('bow-a')).toHaveLength(3);
    expect(endpoint.requests.every((r) => r.input.length <= 2)).toBe(true); // batchSize
    const page = await first.search({ text: 'island ferry', limit: 3, mode: 'semantic' });
    expect(page.hits[0]?.id).toBe('ferry.md');
    expect(endpoint.texts('bow-a')).toContain('island ferry');
    await closeAll();

    const same = openIndex('bow-a');
    expect(await same.reconcile(source(NOTES))).toEqual({ upserted: 0, removed: 0, unchanged: 3 });
    expect(same.stats()).toMatchObject({ vectors: 3, pending: 0 });
    await closeAll();
    expect(passagesSent('bow-a')).toHaveLength(3);

    const other = openIndex('bow-b');
    expect(await other.reconcile(source(NOTES))).toEqual({ upserted: 3, removed: 0, unchanged: 0 });
    await other.finishBackground();
    expect(passagesSent('bow-b').sort()).toEqual(passagesSent('bow-a').sort());
    expect((await other.search({ text: 'sourdough starter', limit: 3, mode: 'semantic' })).hits[0]?.id).toBe(
      'bread.md',
    );
    await closeAll();

    endpoint.dimensions.set('bow-b', 32);
    const narrower = openIndex('bow-b', 32);
    expect((await narrower.reconcile(source(NOTES))).upserted).toBe(3);
    await narrower.finishBackground();
    expect(passagesSent('bow-b')).toHaveLength(6);
    expect(narrower.stats()).toMatchObject({ vectors: 3, pending: 0 });
  });

  it('answers by keyword with a notice while the endpoint is down, never waits for it, and catches up when it is back', async () => {
    // A wait for vectors longer than the test's own timeout: a search that sat it out would fail the test.
    const index = openIndex('bow-a', 64, { vectorWaitMs: 3_600_000 });
    await index.reconcile(source(NOTES));
    await index.finishBackground();
    await endpoint.stop();

    const hybrid = await index.search({ text: 'harbour ferry', limit: 3 });
    expect(hybrid.hits.map((h) => h.id)).toEqual(['ferry.md']);
    expect(hybrid.notice).toMatch(
      /^Search by meaning is unavailable \(The embedding endpoint .* could not be reached \(ECONNREFUSED\).*\): these are keyword matches only\.$/,
    );
    expect(hybrid.vectors).toBeUndefined();
    const semantic = await index.search({ text: 'receipts accountant', limit: 3, mode: 'semantic' });
    expect(semantic.hits.map((h) => h.id)).toEqual(['taxes.md']);
    expect(semantic.notice).toMatch(/Search by meaning is unavailable/);
    expect((await index.search({ text: 'sourdough', limit: 3, mode: 'keyword' })).notice).toBeUndefined();

    // A write's passages cannot be embedded: the next search does not sit out vectorWaitMs for them,
    // and a wait for the background gives up after a few failed attempts instead of hanging.
    await index.upsert(note('kayak.md', 'Kayak', 'Paddle along the harbour wall.'));
    const after = await index.search({ text: 'harbour', limit: 5 });
    expect(after.hits.map((h) => h.id).sort()).toEqual(['ferry.md', 'kayak.md']);
    expect(after.notice).toMatch(/Search by meaning is unavailable/);
    await index.finishBackground();
    expect(index.stats()).toMatchObject({ vectors: 3, pending: 1 });

    await endpoint.start();
    // The queue's own backoff brings the retry; the endpoint answers over real HTTP.
    await vi.waitFor(() => expect(index.stats()).toMatchObject({ vectors: 4, pending: 0 }), {
      timeout: 20_000,
      interval: 50,
    });
    const back = await index.search({ text: 'paddle wall', limit: 3, mode: 'semantic' });
    expect(back.notice).toBeUndefined();
    expect(back.hits[0]?.id).toBe('kayak.md');
  }, 30_000);

  it('says the embedder is failing, not merely building, when vectors are missing and its batches fail', async () => {
    const index = openIndex('bow-a', 64, { vectorWaitMs: 0 });
    endpoint.behaviour = 'fail';
    await index.reconcile(source(NOTES));
    await index.finishBackground(); // gives up after a few failed batches
    endpoint.behaviour = 'ok'; // the query is embedded; the passages' retry is still pausing
    const page = await index.search({ text: 'harbour ferry', limit: 3 });
    expect(page.hits[0]?.id).toBe('ferry.md');
    expect(page.vectors).toEqual({ ready: expect.any(Number), total: 3 });
    expect(page.notice).toMatch(
      /^Vectors are missing, the embedder failing \(.*answered 500: the fake endpoint was told to fail\) and retried \(\d of 3 passages ready\)/,
    );
  }, 30_000);
});
