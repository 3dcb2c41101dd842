/** Agent search syntax → FTS4 enhanced query syntax, and the search it drives over the cache. */
import { describe, expect, it } from 'vitest';
import { cacheQuery } from '../../../backends/simplenote/cache/fts-query.js';
import { openSimplenote } from '../../support/simplenote-subject.js';

describe('simplenote FTS4 query', () => {
  it('turns words, phrases, prefixes, exclusions and OR into one safe expression', () => {
    const expression = (text: string) => cacheQuery(text)?.expression;
    expect(expression('kestrel AND launch')).toBe('(kestrel launch)');
    expect(expression('"launch plan" plan* -heron')).toBe('("launch plan" plan* NOT heron)');
    expect(expression('x OR b c')).toBe('((x OR b) c)');
    expect(expression('NOT AND near(x) e-mail')).toBe('("near x" "e mail" NOT and)');
    expect(expression('AND near(x) e-mail')).toBe('("near x" "e mail")');
    expect(expression('-only -negatives')).toBeUndefined();
    expect(expression('"" * -')).toBeUndefined();
  });

  it('reads plain words as a question: any content word, rows holding every one first', () => {
    expect(cacheQuery('When did the kestrel launch?')).toMatchObject({ expression: 'kestrel OR launch', every: true });
    expect(cacheQuery('kestrel')).toMatchObject({ expression: 'kestrel', every: false });
  });

  it('stems words as the index holds them (Porter), a prefix as spelt', () => {
    expect(cacheQuery('running connections')).toMatchObject({
      expression: 'run OR connect',
      terms: [
        { word: 'run', prefix: false },
        { word: 'connect', prefix: false },
      ],
    });
    expect(cacheQuery('"gardens bloom" runn*')?.expression).toBe('("garden bloom" runn*)');
  });

  it('finds "running" for run and the other way round, marking the word as written', async () => {
    const subject = await openSimplenote();
    try {
      const note = await subject.instance.store!.create({
        title: 'Morning log',
        content: 'went running along the connections',
      });
      for (const text of ['run', 'runs', 'connection', 'running']) {
        const page = await subject.instance.search!.search({ text, limit: 5 });
        expect(
          page.hits.map((h) => h.id),
          text,
        ).toEqual([note.id]);
      }
      const [hit] = (await subject.instance.search!.search({ text: 'run', limit: 1 })).hits;
      expect(hit?.snippet).toContain('<mark>running</mark>');
    } finally {
      await subject.close();
    }
  });

  it('ranks by BM25 with title hits first, folds diacritics, honours exclusions and prefixes', async () => {
    const subject = await openSimplenote();
    try {
      const store = subject.instance.store!;
      const search = subject.instance.search!;
      const body = await store.create({ title: 'Field notes', content: 'a heron and a kestrel by the river' });
      const title = await store.create({ title: 'Kestrel nesting', content: 'no other bird here' });
      const accent = await store.create({ title: 'Résumé', content: 'café crème' });
      const ids = async (text: string) => (await search.search({ text, limit: 10 })).hits.map((h) => h.id);
      expect(await ids('kestrel')).toEqual([title.id, body.id]);
      expect(await ids('kestrel -heron')).toEqual([title.id]);
      expect(await ids('resume CAFE')).toEqual([accent.id]);
      expect(await ids('kes*')).toEqual([title.id, body.id]);
      expect(await ids('heron OR creme')).toHaveLength(2);
      expect(await ids('kestrel by the river')).toEqual([body.id, title.id]);
      const [hit] = (await search.search({ text: 'river', limit: 1 })).hits;
      expect(hit?.snippet).toContain('<mark>river</mark>');
      expect(hit?.note?.title).toBe('Field notes');
    } finally {
      await subject.close();
    }
  });
});
