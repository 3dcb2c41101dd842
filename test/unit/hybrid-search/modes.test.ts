/**
 * The three modes on the hashed embedder (shared words only, so results are predictable):
 * keyword ranks notes holding every word first, semantic ranks by vector and drops passages under the similarity
 * floor, hybrid fuses both; exclusions and the type filter hold in every mode.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HybridSearchIndex } from '../../../backends/hybrid-search/hybrid-index.js';
import type { Note, SearchMode } from '../../../kernel/index.js';
import { hashedEmbedder } from '../../../toolkit/embedding/hashed-embedder.js';

const note = (id: string, title: string, content: string, type = 'general'): Note => ({
  id,
  title,
  content,
  tags: [],
  metadata: {},
  created: '2026-01-01T00:00:00.000Z',
  updated: '2026-01-01T00:00:00.000Z',
  type,
  contentHash: `sha256:${id}`,
});

describe('hybrid index modes', () => {
  const index = new HybridSearchIndex({ file: ':memory:', embedder: hashedEmbedder() });
  const ids = async (text: string, mode: SearchMode, extra: { type?: string } = {}) =>
    (await index.search({ text, limit: 10, mode, ...extra })).hits.map((h) => h.id);

  beforeAll(async () => {
    await index.upsert(note('a', 'Harbour ferry', 'The ferry crosses the harbour at dawn.'));
    await index.upsert(note('b', 'Ferry timetable', 'Winter timetable for the island ferry.'));
    await index.upsert(note('c', 'Harbour walls', 'Storm damage to the harbour walls.', 'journal'));
  });
  afterAll(() => index.close());

  it('keyword ranks notes holding every content word first, then those sharing some; so do semantic and hybrid', async () => {
    expect((await ids('harbour ferry', 'keyword'))[0]).toBe('a');
    expect((await ids('harbour ferry', 'keyword')).sort()).toEqual(['a', 'b', 'c']);
    expect(await ids('harbour AND ferry', 'keyword')).toEqual(['a']);
    expect(await ids('how is the harbour ferry', 'keyword')).toEqual(await ids('harbour ferry', 'keyword')); // stop-words dropped
    expect((await ids('harbour ferry', 'semantic'))[0]).toBe('a');
    expect((await ids('harbour ferry', 'semantic')).sort()).toEqual(['a', 'b', 'c']);
    expect(await ids('harbour ferry', 'hybrid')).toEqual(expect.arrayContaining(['a', 'b', 'c']));
    expect((await ids('harbour ferry', 'hybrid'))[0]).toBe('a');
  });

  it("each hit's snippet comes from its own note's passage, not from the first passage holding a word", async () => {
    const page = await index.search({ text: 'timetable ferry', limit: 10, mode: 'keyword' });
    expect(page.hits.map((h) => [h.id, h.snippet])).toEqual([
      ['b', 'Winter <mark>timetable</mark> for the island <mark>ferry</mark>.'],
      ['a', 'The <mark>ferry</mark> crosses the harbour at dawn.'],
    ]);
    const harbour = await index.search({ text: 'storm walls', limit: 10, mode: 'keyword' });
    expect(harbour.hits.map((h) => [h.id, h.snippet])).toEqual([
      ['c', '<mark>Storm</mark> damage to the harbour <mark>walls</mark>.'],
    ]);
  });

  it('a passage under the similarity floor is not a match', async () => {
    expect(await ids('volcano eruption', 'semantic')).toEqual([]);
    expect(await index.search({ text: 'volcano eruption', limit: 5 })).toEqual({ hits: [], total: 0 });
  });

  it('exclusions and the type filter hold in every mode', async () => {
    for (const mode of ['keyword', 'semantic', 'hybrid'] as const) {
      expect(await ids('harbour -storm', mode), mode).not.toContain('c');
      expect(await ids('harbour', mode, { type: 'journal' }), mode).toEqual(['c']);
    }
  });
});
