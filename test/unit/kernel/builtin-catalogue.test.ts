/** The lazy built-in catalogue the kernel loads and the eager one other callers import hold the same things. */
import { describe, expect, it } from 'vitest';
import { builtinLazyCatalogue } from '../../../profiles/builtins.js';
import { builtinCatalogue } from '../../../profiles/catalogue.js';

describe('built-in catalogue', () => {
  it('has the same profiles, plugin ids and backend ids, lazily and eagerly', () => {
    expect(builtinLazyCatalogue.profiles).toEqual(builtinCatalogue.profiles);
    expect(Object.keys(builtinLazyCatalogue.plugins).sort()).toEqual(builtinCatalogue.plugins.map((p) => p.id).sort());
    expect(Object.keys(builtinLazyCatalogue.backends).sort()).toEqual(builtinCatalogue.backends.map((b) => b.id).sort());
  });

  it('loads, under each id, the very definition the eager catalogue holds', async () => {
    for (const [id, load] of Object.entries(builtinLazyCatalogue.plugins)) expect(await load()).toBe(builtinCatalogue.plugins.find((p) => p.id === id));
    for (const [id, load] of Object.entries(builtinLazyCatalogue.backends)) expect(await load()).toBe(builtinCatalogue.backends.find((b) => b.id === id));
  });
});
