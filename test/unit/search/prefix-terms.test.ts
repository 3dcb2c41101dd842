/**
 * A prefix with one completion in the index is asked as that word (prefix-terms.ts): the same
 * notes, scores and snippets as the prefix, and a prefix shared by several words is left alone.
 */
import { describe, expect, it } from 'vitest';
import { narrowPrefixes } from '../../../backends/fs-sqlite/prefix-terms.js';
import { StatementCache } from '../../../backends/fs-sqlite/search-rows.js';
import { openDatabase } from '../../../toolkit/sqlite-driver.js';
import { ids, openSearchVault, type NoteSpec } from './helpers.js';

describe('narrowPrefixes', () => {
  const db = openDatabase(':memory:');
  db.exec(`CREATE VIRTUAL TABLE notes_fts USING fts5(title, content, tokenize = 'unicode61 remove_diacritics 2');
    INSERT INTO notes_fts VALUES ('Quasar notes', 'a lantern on the land, a lane'), ('Project', 'Łódź');`);
  const cache = new StatementCache(db);

  it.each([
    ['"quas"*', '"quasar"'],
    ['"Quas"*', '"quasar"'],
    ['"project quas"*', '"project quasar"'],
    ['"quasar"*', '"quasar"'],
    ['"lant"* AND NOT "la"*', '"lantern" AND NOT "la"*'],
    ['"la"*', '"la"*'],
    ['"zz"*', '"zz"*'],
    ['"Łó"*', '"Łó"*'],
    ['"quas"', '"quas"'],
  ])('%s → %s', (match, narrowed) => {
    expect(narrowPrefixes(cache, match)).toBe(narrowed);
  });
});

describe('prefix search with one completion', () => {
  const notes: Record<string, NoteSpec> = {};
  for (let i = 0; i < 140; i++) {
    notes[`general/n${i}.md`] = {
      title: i === 3 ? 'A lantern light' : `Note ${i}`,
      body: `A lantern ${'x '.repeat(i % 9)}by the ${i % 2 ? 'land' : 'sea'}.`,
    };
    notes[`other/o${i}.md`] = { title: `Other ${i}`, body: 'Nothing here.' };
  }

  it('answers as the word does (ids, scores, snippets, total), and stops once a second word shares the prefix', async () => {
    const v = await openSearchVault(notes);
    for (const offset of [0, 10, 130]) {
      const prefix = await v.search.search({ text: 'lant*', limit: 10, offset });
      expect(prefix).toEqual(await v.search.search({ text: 'lantern', limit: 10, offset }));
    }
    const both = await v.search.search({ text: 'lan*', limit: 5 });
    expect(both.total).toBe(140);
    const shrub = await v.store.create({ title: 'Lantana', content: 'a shrub', type: 'general' });
    const widened = await v.search.search({ text: 'lant*', limit: 200 });
    expect(widened.total).toBe(141);
    expect(ids(widened)).toContain(shrub.id);
  });
});
