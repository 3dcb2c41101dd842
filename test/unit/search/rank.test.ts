/**
 * Relevance on both ranking paths: bm25() for large match sets, the highlight-based scorer for
 * small ones (search-rank.ts). Either way a title hit comes first and pages tile the matches.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { SMALL_SET } from '../../../backends/fs-sqlite/search-rank.js';
import { ids, openSearchVault, type NoteSpec, type SearchVault } from './helpers.js';

let v: SearchVault;
const MANY = SMALL_SET + 30;

beforeAll(async () => {
  const notes: Record<string, NoteSpec> = {};
  for (let i = 0; i < MANY; i++) {
    // Every note says "lantern" once; the first twenty also say "harbor", note 7 in its title.
    const harbor = i < 20 ? ' by the harbor' : '';
    notes[`general/n${i}.md`] = {
      title: i === 7 ? 'Harbor lantern' : `Note ${i}`,
      body: `A lantern${harbor}, and filler words ${'x '.repeat(i % 13)}.`,
    };
  }
  notes['general/dense.md'] = { title: 'Dense', body: 'lantern lantern lantern lantern lantern' };
  v = await openSearchVault(notes);
});

async function allPages(text: string, size: number): Promise<string[]> {
  const out: string[] = [];
  for (let offset = 0; ; offset += size) {
    const page = await v.search.search({ text, limit: size, offset });
    out.push(...ids(page));
    if (offset + size >= page.total) return out;
  }
}

describe('ranking', () => {
  it('large sets (bm25): the title hit first, then the densest body', async () => {
    const page = await v.search.search({ text: 'lantern', limit: 3 });
    expect(page.total).toBe(MANY + 1);
    expect(ids(page).slice(0, 2)).toEqual(['general/n7.md', 'general/dense.md']);
  });

  it('small sets (scored from their rows): the title hit first', async () => {
    const page = await v.search.search({ text: 'harbor AND lantern', limit: 3 });
    expect(page.total).toBe(20);
    expect(ids(page)[0]).toBe('general/n7.md');
    expect(page.hits[0]?.score).toBeGreaterThan(page.hits[1]?.score ?? Infinity);
    expect(page.hits[1]?.snippet).toContain('<mark>harbor</mark>');
  });

  it.each([
    ['lantern', MANY + 1],
    ['harbor', 20],
  ])('pages of %s tile every match exactly once', async (text, count) => {
    const all = await allPages(text as string, 7);
    expect(all).toHaveLength(count as number);
    expect(new Set(all).size).toBe(count);
  });

  it('filters apply before ranking on both paths', async () => {
    const big = await v.search.search({ text: 'lantern', metadata: [{ key: 'title', value: 'Dense' }], limit: 5 });
    expect(ids(big)).toEqual(['general/dense.md']);
    expect(big.total).toBe(1);
  });
});

describe('ranking a large set that is not in most notes (bm25, rows read for the page only)', () => {
  let w: SearchVault;
  beforeAll(async () => {
    const notes: Record<string, NoteSpec> = {};
    for (let i = 0; i < MANY; i++) {
      notes[`general/n${i}.md`] = {
        title: i === 7 ? 'Harbor lantern' : `Note ${i}`,
        body: `A lantern by the water, and filler words ${'x '.repeat(i % 13)}.`,
      };
      // Twice as many notes without the words: bm25 gives them a real weight (not the clamped one).
      notes[`other/o${i}.md`] = { title: `Other ${i}`, body: 'Nothing to see here.' };
      notes[`other/p${i}.md`] = { title: `Plain ${i}`, body: 'Nothing at all.' };
    }
    notes['general/dense.md'] = { title: 'Dense', body: 'lantern lantern lantern lantern lantern' };
    notes['general/named.md'] = { title: 'Lantern', body: 'A lamp with a handle.' };
    w = await openSearchVault(notes);
  });

  it('orders by score, each hit with its own marked snippet', async () => {
    const page = await w.search.search({ text: 'water AND lantern', limit: 5 });
    expect(page.total).toBe(MANY);
    expect(ids(page)[0]).toBe('general/n7.md');
    const scores = page.hits.map((h) => h.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    for (const hit of page.hits) expect(hit.snippet).toContain('<mark>lantern</mark>');
  });

  it('a question matches any of its words, notes holding every one first, pages tiling', async () => {
    const page = await w.search.search({ text: 'Where is the lantern by the water?', limit: 5 });
    // "lantern" alone is in two more notes than "water": the union, not the intersection.
    expect(page.total).toBe(MANY + 2);
    const scores = page.hits.map((h) => h.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    const every = (await w.search.search({ text: 'water AND lantern', limit: MANY })).hits.map((h) => h.id);
    const all: string[] = [];
    for (let offset = 0; offset < page.total; offset += 50)
      all.push(...ids(await w.search.search({ text: 'Where is the lantern by the water?', limit: 50, offset })));
    expect(new Set(all).size).toBe(MANY + 2);
    expect(new Set(all.slice(0, MANY))).toEqual(new Set(every));
    expect(all.slice(MANY).sort()).toEqual(['general/dense.md', 'general/named.md']);
  });

  it('a note titled as the query comes first, then the rest by relevance, pages tiling', async () => {
    const page = await w.search.search({ text: 'Lantern', limit: 3 });
    expect(page.total).toBe(MANY + 2);
    // Then the densest body and the other title hit, by bm25.
    expect(ids(page)[0]).toBe('general/named.md');
    expect(ids(page).slice(1).sort()).toEqual(['general/dense.md', 'general/n7.md']);
    expect(page.hits[0]?.score).toBeGreaterThan(page.hits[1]?.score ?? Infinity);
    expect(page.hits[1]?.score).toBeGreaterThanOrEqual(page.hits[2]?.score ?? Infinity);
    for (const hit of page.hits.slice(1)) expect(hit.snippet).toContain('<mark>lantern</mark>');
    const all: string[] = [];
    for (let offset = 0; offset < page.total; offset += 9)
      all.push(...ids(await w.search.search({ text: 'Lantern', limit: 9, offset })));
    expect(new Set(all).size).toBe(MANY + 2);
    expect(all.slice(0, 3)).toEqual(ids(page));
  });
});

describe('a question holding a word most notes hold', () => {
  let q: SearchVault;
  beforeAll(async () => {
    const notes: Record<string, NoteSpec> = {};
    // "budget" in all 40 notes (its IDF is clamped), "kestrel" in three, both in one.
    for (let i = 0; i < 40; i++)
      notes[`general/b${i}.md`] = {
        title: `Budget ${i}`,
        body: `The budget line ${i}${i < 3 ? ', with a kestrel' : ''}.`,
        updated: `2026-01-${String(10 + (i % 20)).padStart(2, '0')}T00:00:00.000Z`,
      };
    notes['general/k1.md'] = { title: 'Kestrel one', body: 'A kestrel hovering.' };
    notes['general/k2.md'] = { title: 'Kestrel two', body: 'Another kestrel nest.' };
    q = await openSearchVault(notes);
  });

  it('ranks notes holding every word, then those holding the rarer word, then the rest; pages tile every match', async () => {
    const first = await q.search.search({ text: 'Where is the kestrel in the budget?', limit: 5 });
    expect(first.total).toBe(42);
    expect(ids(first).slice(0, 3).sort()).toEqual(['general/b0.md', 'general/b1.md', 'general/b2.md']);
    expect(ids(first).slice(3, 5).sort()).toEqual(['general/k1.md', 'general/k2.md']);
    const scores = first.hits.map((h) => h.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    const all: string[] = [];
    for (let offset = 0; offset < first.total; offset += 4)
      all.push(...ids(await q.search.search({ text: 'Where is the kestrel in the budget?', limit: 4, offset })));
    expect(all).toHaveLength(42);
    expect(new Set(all).size).toBe(42);
    expect(all.slice(0, 5)).toEqual(ids(first));
  });
});
