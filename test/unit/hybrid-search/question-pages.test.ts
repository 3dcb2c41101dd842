/**
 * A question in keyword mode over the keyword-only index (agent-memory's): when notes holding
 * every word fill the page they alone are ranked, and the pages after switch to the tiered order
 * of every match; either way the pages tile every match once, every-word notes first.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HybridSearchIndex } from '../../../backends/hybrid-search/hybrid-index.js';
import type { Note } from '../../../kernel/index.js';

const note = (i: number, content: string): Note => ({
  id: `n${i}`,
  title: `Note ${i}`,
  content,
  tags: [],
  metadata: {},
  created: '2026-01-01T00:00:00.000Z',
  updated: '2026-01-01T00:00:00.000Z',
  contentHash: `sha256:${i}`,
});

describe('a question paged in keyword mode', () => {
  const index = new HybridSearchIndex({ file: ':memory:' });
  beforeAll(async () => {
    for (let i = 0; i < 30; i++)
      await index.upsert(
        note(i, i < 20 ? `The ferry crosses the harbour ${'again '.repeat(i % 5)}.` : `Only the harbour here ${i}.`),
      );
  });
  afterAll(() => index.close());

  it('tiles every match, notes holding every word first', async () => {
    const first = await index.search({ text: 'harbour ferry', limit: 5, mode: 'keyword' });
    expect(first.total).toBe(30);
    const all: string[] = [];
    for (let offset = 0; offset < 30; offset += 7)
      all.push(
        ...(await index.search({ text: 'harbour ferry', limit: 7, offset, mode: 'keyword' })).hits.map((h) => h.id),
      );
    expect(new Set(all).size).toBe(30);
    expect(all.slice(0, 20).every((id) => Number(id.slice(1)) < 20)).toBe(true);
    expect(all.slice(0, 5)).toEqual(first.hits.map((h) => h.id));
  });
});
