/** The index outbox on its own: writes queue behind a failing index, reads wait, close ends every retry loop. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { IndexOutbox, settledSearchIndex } from '../../../toolkit/search-index/index-outbox.js';
import { silentLogger } from '../../../kernel/logger.js';
import { MemoryKeywordIndex } from '../../../examples/memory-backend/search.js';
import type { Note } from '../../../kernel/note.js';
import type { SearchIndex } from '../../../kernel/backend.js';

const note = (id: string, content: string): Note => ({
  id,
  title: id,
  content,
  tags: [],
  metadata: {},
  created: '2026-01-01T00:00:00.000Z',
  updated: '2026-01-01T00:00:00.000Z',
  contentHash: `sha256:${id}:${content}`,
});

function failing(times: number): { index: SearchIndex; calls: () => number } {
  const inner = new MemoryKeywordIndex();
  let calls = 0;
  const index: SearchIndex = {
    search: (q) => inner.search(q),
    upsert: async (n) => {
      calls += 1;
      if (calls <= times) throw new Error('index offline');
      return inner.upsert(n);
    },
    remove: (id) => inner.remove(id),
    close: () => inner.close(),
  };
  return { index, calls: () => calls };
}

describe('IndexOutbox', () => {
  afterEach(() => void vi.useRealTimers());

  it('queues writes while the index fails, coalesces them per note, and a search waits for the last one', async () => {
    vi.useFakeTimers();
    const { index, calls } = failing(2);
    const outbox = new IndexOutbox(index, silentLogger(), { retryMs: 5 });
    const reader = settledSearchIndex(index, outbox);
    outbox.upsert(note('a', 'first draft'));
    outbox.upsert(note('a', 'final words'));
    outbox.upsert(note('b', 'other note'));
    const searching = reader.search({ text: 'final', limit: 5 });
    await vi.advanceTimersByTimeAsync(5 + 10); // the two retries' backoff
    const page = await searching;
    expect(page.hits.map((h) => h.id)).toEqual(['a']);
    expect((await reader.search({ text: 'draft', limit: 5 })).total).toBe(0);
    expect(calls()).toBe(4); // two failures, then a and b once each
    await outbox.close();
  });

  it('a search fails with backend_unavailable, naming the cause, when the index stays down past the wait', async () => {
    // The retries, the read's wait and close's bound all run on the fake clock.
    vi.useFakeTimers();
    const { index } = failing(Number.POSITIVE_INFINITY);
    const outbox = new IndexOutbox(index, silentLogger(), { retryMs: 5, maxRetryMs: 10, readWaitMs: 100 });
    outbox.upsert(note('a', 'x'));
    const refused = expect(settledSearchIndex(index, outbox).search({ text: 'x', limit: 5 })).rejects.toMatchObject({
      code: 'backend_unavailable',
      message: expect.stringContaining('index offline'),
    });
    await vi.advanceTimersByTimeAsync(100);
    await refused;
    let closed = false;
    void outbox.close(50).then(() => (closed = true));
    await vi.advanceTimersByTimeAsync(49);
    expect(closed).toBe(false); // the index never takes the write: close waits its bound…
    await vi.advanceTimersByTimeAsync(1);
    expect(closed).toBe(true); // …and no longer
  });

  it('close ends a reconcile that keeps failing', async () => {
    const index: SearchIndex = {
      search: async () => ({ hits: [], total: 0 }),
      upsert: async () => undefined,
      remove: async () => undefined,
      close: async () => undefined,
      reconcile: async () => Promise.reject(new Error('store unreachable')),
    };
    vi.useFakeTimers();
    const outbox = new IndexOutbox(index, silentLogger(), { retryMs: 1_000 });
    outbox.reconcileWith({ list: async () => [], get: async () => undefined });
    let closed = false;
    void outbox.close(20).then(() => (closed = true));
    await vi.advanceTimersByTimeAsync(20); // close's bound, not the reconcile's 1 s retry
    expect(closed).toBe(true);
    await expect(outbox.settled()).resolves.toBeUndefined();
  });
});
