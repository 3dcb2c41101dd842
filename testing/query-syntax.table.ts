/**
 * One table of queries (docs/search-syntax.md) run against every search engine through the
 * SearchIndex contract: which notes each query finds, and which comes first where the syntax
 * fixes it. The words are chosen so that stemming (hybrid-search) and its absence (fs-sqlite, the
 * Simplenote cache) agree.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewNote } from '../kernel/note.js';
import { parseQuery } from '../toolkit/search/query.js';
import type { SearchSubject } from './search-index.contract.js';
import { declares } from './contract-support.js';

const NOTES: Record<string, NewNote> = {
  timetable: { title: 'Harbour ferry timetable', content: 'The island ferry leaves the harbour at dawn.' },
  bakery: { title: 'Island bakery', content: 'Fresh bread on the island every morning.' },
  storm: { title: 'Storm report', content: 'Storm damage to the harbour wall; the ferry stayed in port.' },
  review: { title: 'Weekly review', content: 'Plans for the road map and the budget.' },
};

type Name = keyof typeof NOTES;

/** `found`: every note the query matches (any order); `first`: the note that must lead. */
export const QUERY_SYNTAX_TABLE: Array<{ query: string; found: Name[]; first?: Name }> = [
  { query: 'ferry', found: ['timetable', 'storm'], first: 'timetable' },
  { query: 'Which ferry leaves the island harbour?', found: ['timetable', 'bakery', 'storm'], first: 'timetable' },
  { query: 'ISLAND Ferry', found: ['timetable', 'bakery', 'storm'], first: 'timetable' },
  { query: 'bread harbour', found: ['timetable', 'bakery', 'storm'] },
  { query: 'road map', found: ['review'] },
  { query: '"island ferry"', found: ['timetable'] },
  { query: 'harbour AND ferry', found: ['timetable', 'storm'] },
  { query: 'island AND storm', found: [] },
  { query: 'the AND harbour', found: ['timetable', 'storm'] },
  { query: 'harbour -storm', found: ['timetable'] },
  { query: 'harbour NOT storm', found: ['timetable'] },
  { query: 'island OR budget', found: ['timetable', 'bakery', 'review'] },
  { query: 'weekly island OR budget', found: ['review'] },
  { query: 'bake*', found: ['bakery'] },
  { query: '-storm', found: ['timetable', 'bakery', 'review'] },
];

export function describeQuerySyntax(name: string, open: () => Promise<SearchSubject>): void {
  describe(`query syntax table: ${name}`, () => {
    let s: SearchSubject;
    const ids: Record<string, string> = {};
    beforeAll(async () => {
      s = await open();
      for (const [key, note] of Object.entries(NOTES)) {
        const created = await s.store.create(note);
        await s.search.upsert(created);
        ids[created.id] = key;
      }
    });
    afterAll(() => s.close());

    // An index with vectors answers in its keyword mode; in its default (hybrid) mode a query
    // spelling syntax finds the same notes, and a question may gain what meaning adds.
    it.each(QUERY_SYNTAX_TABLE)('$query', async ({ query, found, first }) => {
      const vectors = declares(s.capabilities, 'vectors');
      const modes = vectors ? (['keyword', 'hybrid'] as const) : [undefined];
      for (const mode of modes) {
        const page = await s.search.search({ text: query, limit: 10, ...(mode ? { mode } : {}) });
        const names = page.hits.map((h) => ids[h.id] ?? h.id);
        if (mode === 'hybrid' && parseQuery(query).question) expect(names).toEqual(expect.arrayContaining(found));
        else {
          expect([...names].sort(), mode).toEqual([...found].sort());
          expect(page.total).toBe(found.length);
        }
        if (first) expect(names[0], mode).toBe(first);
      }
    });
  });
}
