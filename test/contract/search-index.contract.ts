/**
 * The SearchIndex contract every `full-text` backend must pass: a backend's test file calls
 * `describeSearchIndexContract(name, open)` with a factory opening a fresh, empty store and its
 * index. Notes are written through NoteStore.create (and handed to `search.upsert`, which a
 * backend that indexes its own writes treats as a re-sync); only the contract's members are used.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NoteStore, SearchIndex, SearchQuery } from '../../kernel/backend.js';
import type { NewNote } from '../../kernel/note.js';

export interface SearchSubject {
  store: NoteStore;
  search: SearchIndex;
  close(): Promise<void>;
}

const NOTES: NewNote[] = [
  { title: 'Kestrel launch plan', content: 'Budget review for the kestrel launch.', type: 'projects', metadata: { status: 'active', priority: 10, due: '2024-06-01', tags: ['launch', 'birds'] } },
  { title: 'Heron archive', content: 'Old notes; the kestrel is mentioned once.', type: 'projects', metadata: { status: 'done', priority: 9, due: '2024-05-01', tags: ['birds'] } },
  { title: 'Café crème', content: 'Tasting notes from the café.', type: 'journal', metadata: { status: 'active', priority: 2 } },
];

export function describeSearchIndexContract(name: string, open: () => Promise<SearchSubject>): void {
  describe(`SearchIndex contract: ${name}`, () => {
    let s: SearchSubject;
    const ids = async (query: Partial<SearchQuery>) => (await s.search.search({ text: '', limit: 50, ...query })).hits.map((h) => h.id);
    const idOf = (title: string) => s.store.list({ limit: 100 }).then((all) => all.find((n) => n.title === title)?.id);

    beforeAll(async () => {
      s = await open();
      for (const input of NOTES) await s.search.upsert(await s.store.create(input));
    });
    afterAll(() => s.close());

    it('ranks a title hit above a body mention and marks the match', async () => {
      const page = await s.search.search({ text: 'kestrel', limit: 10 });
      expect(page.total).toBe(2);
      expect(page.hits[0]?.id).toBe(await idOf('Kestrel launch plan'));
      expect(page.hits.some((h) => h.snippet.includes('<mark>'))).toBe(true);
    });

    it('folds case and diacritics, and never fails on odd syntax', async () => {
      expect(await ids({ text: 'CAFE' })).toEqual([await idOf('Café crème')]);
      for (const text of ['"unclosed', 'a OR', '(*)', 'NEAR(x', '-']) await expect(s.search.search({ text, limit: 5 })).resolves.toBeDefined();
    });

    it('an empty text lists notes, most recently updated first; nothing matching is an empty page', async () => {
      expect((await ids({})).length).toBe(3);
      expect(await s.search.search({ text: 'zzzyyyxxx', limit: 5 })).toEqual({ hits: [], total: 0 });
    });

    it('compares metadata by stored type, and sorts by it', async () => {
      expect(await ids({ metadata: [{ key: 'priority', operator: '>', value: 9 }] })).toEqual([await idOf('Kestrel launch plan')]);
      expect(await ids({ metadata: [{ key: 'due', operator: '<', value: '2024-05-15' }] })).toEqual([await idOf('Heron archive')]);
      expect((await ids({ metadata: [{ key: 'tags', value: 'birds' }] })).length).toBe(2);
      expect(await ids({ type: 'projects', sort: [{ field: 'metadata.priority', order: 'asc' }] })).toEqual([await idOf('Heron archive'), await idOf('Kestrel launch plan')]);
    });

    it('pages with limit and offset; total counts every match', async () => {
      const second = await s.search.search({ text: '', sort: [{ field: 'title' }], limit: 1, offset: 1 });
      expect(second.total).toBe(3);
      expect(second.hits.map((h) => h.id)).toEqual([await idOf('Heron archive')]);
    });

    it('names the member of a bad query', async () => {
      await expect(s.search.search({ text: '', sort: [{ field: 'nope' as 'title' }], limit: 5 })).rejects.toMatchObject({
        code: 'validation_failed',
        details: { field: 'sort.0.field' },
      });
      await expect(s.search.search({ text: '', metadata: [{ key: 'a', operator: '~' as '=', value: 1 }], limit: 5 })).rejects.toMatchObject({
        details: { field: 'metadata.0.operator' },
      });
    });
  });
}
