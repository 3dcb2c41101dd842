/**
 * Exact and continuing titles rank first: on a family of near-identical titles, the note a
 * query names comes first even when its siblings mention the query's words more often.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ids, openSearchVault, type SearchVault } from './helpers.js';

let v: SearchVault;

beforeAll(async () => {
  const notes: Parameters<typeof openSearchVault>[0] = {};
  for (let n = 10; n < 20; n++) {
    // Every sibling repeats "13" and the family name in its body; note 13 does not.
    notes[`projects/quasar-${n}.md`] = {
      title: `Project Quasar ${n}`,
      body: n === 13 ? 'A short note.' : 'Project Quasar 13 13 13, see project quasar 13 again.',
    };
  }
  notes['projects/quasar-13b.md'] = { title: 'Project Quasar 13 b', body: 'The follow-up.' };
  notes['projects/lodz.md'] = { title: 'Łódź office', body: 'Moved.' };
  notes['meetings/quasar.md'] = { title: 'Meeting', body: 'Project Quasar 13 project quasar 13 was discussed.' };
  v = await openSearchVault(notes);
});

describe('titles first', () => {
  it('the exactly titled note, then the title that continues it, then the rest by relevance', async () => {
    const page = await v.search.search({ text: 'Project Quasar 13', limit: 5 });
    expect(ids(page).slice(0, 2)).toEqual(['projects/quasar-13.md', 'projects/quasar-13b.md']);
    expect(page.total).toBe(12);
    const scores = page.hits.map((h) => h.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it('case, spacing, punctuation and folded letters do not matter; paging neither repeats nor skips', async () => {
    expect(ids(await v.search.search({ text: 'project  QUASAR-13', limit: 1 }))).toEqual(['projects/quasar-13.md']);
    expect(ids(await v.search.search({ text: '"lodz office"', limit: 1 }))).toEqual(['projects/lodz.md']);
    const all = ids(await v.search.search({ text: 'Project Quasar 13', limit: 50 }));
    const paged = [];
    for (let offset = 0; offset < 12; offset += 1)
      paged.push(...ids(await v.search.search({ text: 'Project Quasar 13', limit: 1, offset })));
    expect(paged).toEqual(all);
    expect(new Set(all).size).toBe(12);
  });

  it('a query whose last word is a prefix puts the titles starting with it first, in title order', async () => {
    // "Meeting" holds the words more often than any title, and ranks after every titled note.
    const page = await v.search.search({ text: 'Project Quasar 1*', limit: 12 });
    expect(ids(page).slice(0, 11)).toEqual([
      'projects/quasar-10.md',
      'projects/quasar-11.md',
      'projects/quasar-12.md',
      'projects/quasar-13.md',
      'projects/quasar-13b.md',
      'projects/quasar-14.md',
      'projects/quasar-15.md',
      'projects/quasar-16.md',
      'projects/quasar-17.md',
      'projects/quasar-18.md',
      'projects/quasar-19.md',
    ]);
    expect(ids(page)[11]).toBe('meetings/quasar.md');
    expect(ids(await v.search.search({ text: 'project quas*', limit: 1 }))).toEqual(['projects/quasar-10.md']);
    expect(ids(await v.search.search({ text: 'Łódź off*', limit: 1 }))).toEqual(['projects/lodz.md']);
  });

  it('filters apply to titled notes too; exclusions and alternatives rank by relevance alone', async () => {
    expect(ids(await v.search.search({ text: 'Project Quasar 13', type: 'meetings', limit: 5 }))).toEqual([
      'meetings/quasar.md',
    ]);
    const excluded = ids(await v.search.search({ text: 'Project Quasar 13 -follow', limit: 20 }));
    expect(excluded).not.toContain('projects/quasar-13b.md');
    expect(excluded).toContain('projects/quasar-13.md');
  });
});
