import { describe, expect, it } from 'vitest';
import { NameIndex } from '../../../plugins/links/names.js';

describe('NameIndex', () => {
  it('reads the names it is rebuilt from only when first asked, and once', () => {
    const index = new NameIndex();
    let reads = 0;
    index.rebuildFromNames(
      function* () {
        reads++;
        yield { id: 'general/second.md', title: 'Second', stem: 'second' };
        yield { id: 'general/łódź.md', title: 'Łódź', stem: 'łódź' };
      },
      new Map([['t:old second', 'general/second.md']]),
    );
    expect(reads).toBe(0);
    expect(index.resolveKey('second')).toEqual({ target: 'general/second.md', by: 'title' });
    expect(index.resolveKey('lodz')).toEqual({ target: 'general/łódź.md', by: 'title' });
    expect(index.resolveKey('old second')).toEqual({ target: 'general/second.md', by: 'former' });
    index.add({ id: 'general/third.md', title: 'Third', stem: 'third' });
    expect(index.size).toBe(3);
    expect(reads).toBe(1);
  });

  it('a note removed before the first read is gone from what is read', () => {
    const index = new NameIndex();
    const stored = [{ id: 'a.md', title: 'A', stem: 'a' }];
    index.rebuildFromNames(() => stored, new Map());
    expect(index.remove('a.md')).toEqual({ id: 'a.md', title: 'A', stem: 'a' });
    expect(index.resolveKey('a')).toEqual({ target: null, by: null });
  });
});
