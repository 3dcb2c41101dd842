/**
 * The kernel's search wrappers (the capability gate, the outbox's settled view) reach every
 * member of SearchIndex. The index below implements all of them (`Required<SearchIndex>`: a member
 * added to the interface fails to compile here until it is added), and each wrapper is asked for
 * each member by name: it must be there and reach the index, whatever the wrapper adds around it.
 */
import { describe, expect, it } from 'vitest';
import type { SearchIndex } from '../../../kernel/backend.js';
import { IndexOutbox, settledSearchIndex } from '../../../toolkit/search-index/index-outbox.js';
import { silentLogger } from '../../../kernel/logger.js';
import type { Note } from '../../../kernel/note.js';
import { capabilityGatedSearch } from '../../../kernel/search-gate.js';
import { CAPABILITIES, type Capability } from '../../../kernel/backend.js';

const NOTE: Note = {
  id: 'a',
  title: 'A',
  content: 'a',
  tags: [],
  metadata: {},
  created: '2026-01-01T00:00:00.000Z',
  updated: '2026-01-01T00:00:00.000Z',
  contentHash: 'sha256:a',
};

/** Every member of SearchIndex, each recording that it was reached. */
function fullIndex(): { index: Required<SearchIndex>; reached: Set<string> } {
  const reached = new Set<string>();
  const index: Required<SearchIndex> = {
    search: async () => (reached.add('search'), { hits: [], total: 0 }),
    upsert: async () => void reached.add('upsert'),
    remove: async () => void reached.add('remove'),
    close: async () => void reached.add('close'),
    reconcile: async () => (reached.add('reconcile'), { upserted: 0, removed: 0, unchanged: 0 }),
    finishBackground: async () => (reached.add('finishBackground'), { done: 0, ms: 0 }),
    sql: async () => (reached.add('sql'), []),
  };
  return { index, reached };
}

/** Calls a member with arguments it accepts. */
function call(search: SearchIndex, member: keyof SearchIndex): Promise<unknown> {
  switch (member) {
    case 'search':
      return search.search({ text: 'a', limit: 1 });
    case 'upsert':
      return search.upsert(NOTE);
    case 'remove':
      return search.remove('a');
    case 'reconcile':
      return search.reconcile!({ list: async () => [], get: async () => undefined });
    case 'sql':
      return search.sql!('SELECT 1');
    default:
      return (search[member] as () => Promise<unknown>)();
  }
}

const ALL = new Set(Object.keys(CAPABILITIES) as Capability[]);

describe('search wrappers forward every SearchIndex member', () => {
  const members = Object.keys(fullIndex().index) as Array<keyof SearchIndex>;

  it.each(members)('the capability gate reaches %s', async (member) => {
    const { index, reached } = fullIndex();
    const gated = capabilityGatedSearch(index, ALL, 'full');
    expect(typeof gated[member], member).toBe('function');
    await call(gated, member);
    expect(reached.has(member), member).toBe(true);
  });

  it.each(members.filter((m) => m !== 'close'))("the outbox's settled view reaches %s", async (member) => {
    const { index, reached } = fullIndex();
    const outbox = new IndexOutbox(index, silentLogger());
    const settled = settledSearchIndex(index, outbox);
    expect(typeof settled[member], member).toBe('function');
    await call(settled, member);
    // Writes reach the index behind the outbox.
    await outbox.idle();
    expect(reached.has(member), member).toBe(true);
    await outbox.close();
  });

  it("the settled view's close flushes the outbox, and the gate keeps the index's absent members absent", async () => {
    const { index } = fullIndex();
    const outbox = new IndexOutbox(index, silentLogger());
    await settledSearchIndex(index, outbox).close();
    const bare: SearchIndex = { search: index.search, upsert: index.upsert, remove: index.remove, close: index.close };
    const gated = capabilityGatedSearch(bare, ALL, 'bare');
    const settled = settledSearchIndex(bare, new IndexOutbox(bare, silentLogger()));
    for (const member of ['sql', 'reconcile', 'finishBackground'] as const) {
      expect(gated[member], member).toBeUndefined();
      expect(settled[member], member).toBeUndefined();
      expect(member in gated, member).toBe(false);
    }
  });

  it('the gate still refuses what the index lacks', async () => {
    const { index, reached } = fullIndex();
    const gated = capabilityGatedSearch(index, new Set<Capability>(['full-text']), 'keyword-only');
    await expect(gated.search({ text: 'a', limit: 1, regex: true })).rejects.toMatchObject({
      code: 'capability_missing',
      details: { field: 'regex' },
    });
    expect(reached.has('search')).toBe(false);
  });
});
