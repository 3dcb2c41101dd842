/**
 * A query whose words are in most notes (bm25 gives them the clamped IDF, decision 026): notes
 * holding the words in their title first, by relevance, then the other matches most recently
 * updated first; pages neither repeat nor skip, the total counts every match.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ids, openSearchVault, type SearchVault } from './helpers.js';

let v: SearchVault;
const MATCHES = 150; // above the small set scored without bm25 (search-rank.ts)

beforeAll(async () => {
  const notes: Parameters<typeof openSearchVault>[0] = {};
  for (let i = 0; i < MATCHES; i++) {
    const day = String(1 + (i % 28)).padStart(2, '0');
    const month = String(1 + Math.floor(i / 28)).padStart(2, '0');
    notes[`notes/n-${String(i).padStart(3, '0')}.md`] = {
      title: i === 7 ? 'Budget review' : i === 90 ? 'Budget' : `Note ${i}`,
      body: `The budget line ${i}, ${'and more words '.repeat(i % 5)}.`,
      updated: `2024-${month}-${day}T00:00:00.000Z`,
    };
  }
  for (let i = 0; i < 20; i++) notes[`notes/other-${i}.md`] = { title: `Other ${i}`, body: 'Nothing of the sort.' };
  v = await openSearchVault(notes);
});

describe('words in most notes', () => {
  it('titled notes first (the exact title above the longer one), then the most recently updated', async () => {
    const page = await v.search.search({ text: 'budget', limit: 5 });
    expect(page.total).toBe(MATCHES);
    expect(ids(page).slice(0, 2)).toEqual(['notes/n-090.md', 'notes/n-007.md']);
    // Updated 2024-05-10 (i = 149), then 05-09 … : the newest of the rest.
    expect(ids(page).slice(2)).toEqual(['notes/n-149.md', 'notes/n-148.md', 'notes/n-147.md']);
    const scores = page.hits.map((h) => h.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect(page.hits[2]?.snippet).toContain('<mark>budget</mark>');
  });

  it('pages follow one order with nothing repeated or skipped', async () => {
    const all = ids(await v.search.search({ text: 'budget', limit: 200 }));
    expect(new Set(all).size).toBe(MATCHES);
    const paged: string[] = [];
    for (let offset = 0; offset < MATCHES; offset += 7)
      paged.push(...ids(await v.search.search({ text: 'budget', limit: 7, offset })));
    expect(paged).toEqual(all);
  });

  it('a prefix term pages the same way, its hits marked (they are read by rowid range, not one lookup each)', async () => {
    const all = await v.search.search({ text: 'budg*', limit: 200 });
    expect(all.total).toBe(MATCHES);
    expect(ids(all).slice(0, 2)).toEqual(['notes/n-090.md', 'notes/n-007.md']);
    expect(all.hits.every((h) => h.snippet.includes('<mark>budget</mark>'))).toBe(true);
    const paged: string[] = [];
    for (let offset = 0; offset < MATCHES; offset += 9)
      paged.push(...ids(await v.search.search({ text: 'budg*', limit: 9, offset })));
    expect(paged).toEqual(ids(all));
  });

  it('exclusions and filters keep bm25 ranking over every match', async () => {
    const page = await v.search.search({ text: 'budget -review', limit: 200 });
    expect(page.total).toBe(MATCHES - 1);
    expect(ids(page)).not.toContain('notes/n-007.md');
  });
});
