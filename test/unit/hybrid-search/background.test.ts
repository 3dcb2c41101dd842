/**
 * Keywords first, vectors behind: a catch-up stores every note's keywords before any vector is
 * made, keyword search answers at once, a search by meaning answers from the vectors that are
 * ready and says how many (`vectors`, `notice`), and `finishBackground` waits for the rest while
 * reporting progress. A write's passages go before the catch-up's.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HybridSearchIndex } from '../../../backends/hybrid-search/hybrid-index.js';
import type { ReconcileSource } from '../../../kernel/backend.js';
import type { Note, NoteSummary } from '../../../kernel/note.js';
import type { Embedder } from '../../../toolkit/embedding/embedder.js';
import { hashedEmbedder } from '../../../toolkit/embedding/hashed-embedder.js';

/**
 * The hashed embedder with passages held behind a gate the test opens; records each batch of
 * passages. A query (one line: a passage is its title and text on separate lines) passes.
 */
function gated(): Embedder & { open(): void; batches: string[][] } {
  const inner = hashedEmbedder();
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const batches: string[][] = [];
  return {
    id: inner.id,
    dim: inner.dim,
    batches,
    open: () => release(),
    async embed(texts) {
      if (texts.every((text) => !text.includes('\n'))) return inner.embed(texts);
      batches.push([...texts]);
      await gate;
      return inner.embed(texts);
    },
  };
}

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

const source = (notes: Note[]): ReconcileSource => ({
  list: async () => notes.map(({ content: _content, ...summary }) => summary as NoteSummary),
  get: async (id) => notes.find((n) => n.id === id),
});

describe('hybrid index: keywords at once, vectors in the background', () => {
  const open: HybridSearchIndex[] = [];
  afterEach(async () => {
    vi.useRealTimers();
    for (const index of open.splice(0)) await index.close();
  });

  it('answers keyword searches before any vector exists, and says how far the vectors are', async () => {
    const embedder = gated();
    const index = new HybridSearchIndex({ file: ':memory:', embedder, vectorWaitMs: 50 });
    open.push(index);
    const notes = [
      note('a', 'Osprey', 'A fish hawk over the reservoir.'),
      note('b', 'Taxes', 'Receipts for the accountant.'),
      note('c', 'Bread', 'Feed the starter.'),
    ];
    expect(await index.reconcile(source(notes))).toEqual({ upserted: 3, removed: 0, unchanged: 0 });
    expect(index.stats()).toMatchObject({ notes: 3, chunks: 3, vectors: 0, pending: 3 });

    const keyword = await index.search({ text: 'reservoir', limit: 5, mode: 'keyword' });
    expect(keyword.hits.map((h) => h.id)).toEqual(['a']);
    expect(keyword.notice).toBeUndefined();

    const hybrid = await index.search({ text: 'reservoir', limit: 5 });
    expect(hybrid.hits.map((h) => h.id)).toEqual(['a']);
    expect(hybrid.vectors).toEqual({ ready: 0, total: 3 });
    expect(hybrid.notice).toMatch(/0 of 3 passages/);

    const ticks: number[] = [];
    const progress = {
      start: (_label: string, total: number) => ticks.push(-total),
      tick: (n = 1) => ticks.push(n),
      stop: () => undefined,
    };
    const finished = index.finishBackground(progress);
    embedder.open();
    expect((await finished).done).toBe(3);
    expect(ticks).toEqual([-3, 3]);
    expect(embedder.batches).toHaveLength(1); // the catch-up's passages went in one batch

    const after = await index.search({ text: 'reservoir', limit: 5 });
    expect(after.vectors).toBeUndefined();
    expect(after.notice).toBeUndefined();
    expect((await index.search({ text: 'fish hawk', limit: 5, mode: 'semantic' })).hits[0]?.id).toBe('a');
  });

  it("embeds a write's passages before the catch-up's, and a search waits for them only so long", async () => {
    // vectorWaitMs is a timer: on the fake clock the search is seen waiting it out, and no longer.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const embedder = gated();
    const index = new HybridSearchIndex({ file: ':memory:', embedder, vectorWaitMs: 30, embedBatch: 2 });
    open.push(index);
    await index.reconcile(
      source([
        note('a', 'One', 'first backlog note'),
        note('b', 'Two', 'second backlog note'),
        note('c', 'Three', 'third backlog note'),
      ]),
    );
    await index.upsert(note('w', 'Written', 'a note just written by the agent'));
    let answered = false;
    const searching = index.search({ text: 'agent', limit: 5 }).finally(() => (answered = true));
    await vi.advanceTimersByTimeAsync(29);
    expect(answered).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const page = await searching;
    expect(page.vectors).toEqual({ ready: 0, total: 4 });
    vi.useRealTimers();
    embedder.open();
    await index.finishBackground();
    // The first batch was already taken from the backlog; the write jumped the rest of it.
    expect(embedder.batches[1]?.[0]).toContain('Written');
    expect(index.stats()).toMatchObject({ vectors: 4, pending: 0, embedded: 4 });
  });

  it('drops a queued passage that an edit replaced before its vector was made', async () => {
    const embedder = gated();
    const index = new HybridSearchIndex({ file: ':memory:', embedder, vectorWaitMs: 0, embedBatch: 1 });
    open.push(index);
    await index.upsert(note('a', 'Draft', 'first words'));
    await index.upsert(note('b', 'Other', 'other words'));
    await index.upsert(note('b', 'Other', 'other words, revised'));
    embedder.open();
    await index.finishBackground();
    const embedded = embedder.batches.flat();
    expect(embedded).not.toContain('Other\nother words');
    expect(embedded).toContain('Other\nother words, revised');
    expect(index.stats()).toMatchObject({ chunks: 2, vectors: 2, pending: 0 });
  });
});
