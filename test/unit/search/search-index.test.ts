/**
 * fs-sqlite's SearchIndex: ranking, agent query syntax, folding, empty queries, paging. Real
 * files, the real index; every expectation is about what an agent would see.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ids, openSearchVault, type SearchVault } from './helpers.js';

let v: SearchVault;

beforeAll(async () => {
  v = await openSearchVault({
    'general/roadmap.md': {
      title: 'Roadmap planning',
      body: 'Quarterly goals and a release train.',
      updated: '2024-03-01T00:00:00.000Z',
    },
    'general/mentions.md': {
      title: 'Weekly sync',
      body: 'We touched the roadmap briefly, then lunch.',
      updated: '2024-03-05T00:00:00.000Z',
    },
    'general/cafe.md': {
      title: 'Café visit',
      body: 'The crème brûlée at the café was great.',
      updated: '2024-02-01T00:00:00.000Z',
    },
    'general/plain-cafe.md': {
      title: 'Coffee',
      body: 'cafe without accents, naive text',
      updated: '2024-01-15T00:00:00.000Z',
    },
    'general/strasse.md': {
      title: 'Über Straße',
      body: 'Eine Notiz über die Straße.',
      updated: '2024-01-10T00:00:00.000Z',
    },
    'general/japanese.md': { title: '日本語 ノート', body: '東京 travel notes', updated: '2024-01-11T00:00:00.000Z' },
    'meetings/standup.md': {
      title: 'Standup',
      body: 'Meeting notes: the planner tool is slow. Draft follow-up.',
      updated: '2024-03-10T00:00:00.000Z',
    },
    'meetings/retro.md': {
      title: 'Retro',
      body: 'Meeting notes from the retro. Plans for next sprint.',
      updated: '2024-03-09T00:00:00.000Z',
    },
    'meetings/draft.md': {
      title: 'Draft agenda',
      body: 'meeting notes draft, not final',
      updated: '2024-03-08T00:00:00.000Z',
    },
  });
});

describe('ranking and snippets', () => {
  it('ranks a title match above a body mention (bm25, title weighted)', async () => {
    const page = await v.search.search({ text: 'roadmap', limit: 10 });
    expect(ids(page)).toEqual(['general/roadmap.md', 'general/mentions.md']);
    expect(page.total).toBe(2);
    expect(page.hits[0]?.score).toBeGreaterThan(page.hits[1]?.score ?? Infinity);
  });

  it('marks the matched terms in the snippet, and carries the indexed note', async () => {
    const [hit] = (await v.search.search({ text: 'lunch', limit: 1 })).hits;
    expect(hit?.snippet).toContain('<mark>lunch</mark>');
    expect(hit?.note).toMatchObject({
      id: 'general/mentions.md',
      title: 'Weekly sync',
      type: 'general',
      filename: 'mentions.md',
    });
    expect(hit?.note?.metadata).toMatchObject({ title: 'Weekly sync' });
  });
});

describe('agent query syntax', () => {
  it('quoted phrases match words in order', async () => {
    expect(ids(await v.search.search({ text: '"notes from the retro"', limit: 10 }))).toEqual(['meetings/retro.md']);
  });

  it('plan* matches words starting with plan', async () => {
    expect(ids(await v.search.search({ text: 'plan*', limit: 10 })).sort()).toEqual([
      'general/roadmap.md',
      'meetings/retro.md',
      'meetings/standup.md',
    ]);
  });

  it('-word excludes, alone or beside other words', async () => {
    expect(ids(await v.search.search({ text: '"meeting notes" -draft', limit: 10 }))).toEqual(['meetings/retro.md']);
    const without = ids(await v.search.search({ text: '-draft', limit: 50 }));
    expect(without).not.toContain('meetings/draft.md');
    expect(without).not.toContain('meetings/standup.md');
    expect(without).toHaveLength(7);
  });

  it('OR joins its neighbours only (a b OR c reads a AND (b OR c))', async () => {
    expect(ids(await v.search.search({ text: 'lunch OR sprint', limit: 10 })).sort()).toEqual([
      'general/mentions.md',
      'meetings/retro.md',
    ]);
    expect(ids(await v.search.search({ text: 'meeting retro OR planner', limit: 10 })).sort()).toEqual([
      'meetings/retro.md',
      'meetings/standup.md',
    ]);
  });

  it.each([
    '"unclosed phrase',
    'AND OR NOT',
    '*',
    '(((',
    'NEAR(a b',
    'title:roadmap',
    '^roadmap',
    '"" "" -',
    'a"b"c',
    'col : {x}',
    '\u0000\u0001',
    "'; DROP TABLE notes; --",
  ])('never a syntax error: %j', async (text) => {
    await expect(v.search.search({ text, limit: 5 })).resolves.toHaveProperty('total');
  });

  it('finds the note behind characters FTS5 would choke on', async () => {
    expect(ids(await v.search.search({ text: 'roadmap:', limit: 10 }))[0]).toBe('general/roadmap.md');
    expect(ids(await v.search.search({ text: '(roadmap)', limit: 10 }))[0]).toBe('general/roadmap.md');
  });
});

describe('folding and unicode', () => {
  it('café finds cafe and cafe finds café', async () => {
    expect(ids(await v.search.search({ text: 'café', limit: 10 })).sort()).toEqual([
      'general/cafe.md',
      'general/plain-cafe.md',
    ]);
    expect(ids(await v.search.search({ text: 'cafe', limit: 10 })).sort()).toEqual([
      'general/cafe.md',
      'general/plain-cafe.md',
    ]);
    expect(ids(await v.search.search({ text: 'creme brulee', limit: 10 }))).toEqual(['general/cafe.md']);
  });

  it('unicode titles are searchable', async () => {
    expect(ids(await v.search.search({ text: 'uber strasse', limit: 10 }))).toEqual(['general/strasse.md']);
    expect(ids(await v.search.search({ text: 'über straße', limit: 10 }))).toEqual(['general/strasse.md']);
    expect(ids(await v.search.search({ text: 'UBER', limit: 10 }))).toEqual(['general/strasse.md']);
    expect(ids(await v.search.search({ text: '日本語', limit: 10 }))).toEqual(['general/japanese.md']);
  });

  let latin: SearchVault;
  beforeAll(async () => {
    latin = await openSearchVault({
      'general/lodz.md': {
        title: 'Trip to Łódź',
        body: 'Then Gdańsk, Bjørn in Ærøskøbing, Þórsmörk and Đakovo; the Œuvre of Kırşehir.',
      },
      'general/other.md': { title: 'Elsewhere', body: 'Nothing folded here.' },
    });
  });

  it('letters Unicode does not decompose fold too, in queries and in the index alike', async () => {
    for (const text of [
      'lodz',
      'Łódź',
      'LODZ',
      'gdansk',
      'bjorn',
      'aeroskobing',
      'Ærøskøbing',
      'thorsmork',
      'dakovo',
      'oeuvre',
      'kirsehir',
      'Kırşehir',
    ]) {
      expect(ids(await latin.search.search({ text, limit: 10 })), text).toEqual(['general/lodz.md']);
    }
  });

  it('highlights the note as written, not its folded form', async () => {
    const [hit] = (await latin.search.search({ text: 'lodz', limit: 1 })).hits;
    expect(hit?.note?.title).toBe('Trip to Łódź');
    const [inBody] = (await latin.search.search({ text: 'bjorn', limit: 1 })).hits;
    expect(inBody?.snippet).toContain('<mark>Bjørn</mark>');
    expect(inBody?.snippet).toContain('Ærøskøbing');
  });
});

describe('empty queries, types, paging', () => {
  it('an empty query lists the most recently updated first', async () => {
    const page = await v.search.search({ text: '  ', limit: 3 });
    expect(ids(page)).toEqual(['meetings/standup.md', 'meetings/retro.md', 'meetings/draft.md']);
    expect(page.total).toBe(9);
    expect(page.hits[0]?.snippet).toContain('Meeting notes');
  });

  it('filters by type', async () => {
    const page = await v.search.search({ text: 'notes', type: 'meetings', limit: 10 });
    expect(ids(page).sort()).toEqual(['meetings/draft.md', 'meetings/retro.md', 'meetings/standup.md']);
    expect((await v.search.search({ text: '', type: 'nope', limit: 10 })).total).toBe(0);
  });

  it('pages with limit and offset, total counting every match', async () => {
    const all = ids(await v.search.search({ text: '', limit: 50 }));
    const second = await v.search.search({ text: '', limit: 4, offset: 4 });
    expect(ids(second)).toEqual(all.slice(4, 8));
    expect(second.total).toBe(9);
    expect((await v.search.search({ text: '', limit: 4, offset: 20 })).total).toBe(9);
    expect((await v.search.search({ text: 'nothingmatchesthis', limit: 4 })).hits).toEqual([]);
  });

  it('follows writes: a created note is found, a deleted one is gone', async () => {
    const note = await v.store.create({ title: 'Zebra crossing', content: 'stripes everywhere', type: 'general' });
    expect(ids(await v.search.search({ text: 'stripes', limit: 5 }))).toEqual([note.id]);
    await v.store.delete(note.id);
    expect(ids(await v.search.search({ text: 'stripes', limit: 5 }))).toEqual([]);
  });
});
