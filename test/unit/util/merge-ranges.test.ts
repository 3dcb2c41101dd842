import { describe, expect, it } from 'vitest';
import { mergeRanges, type Range } from '../../../toolkit/markdown/code-regions.js';

const r = (start: number, end: number): Range => ({ start, end });
const bySort = (lists: Range[][]): Range[] => lists.flat().sort((a, b) => a.start - b.start || a.end - b.end);

describe('mergeRanges', () => {
  it('returns a lone filled list as it is, and nothing for empty lists', () => {
    const only = [r(1, 3), r(5, 9)];
    expect(mergeRanges([], only, [])).toBe(only);
    expect(mergeRanges([], [])).toEqual([]);
    expect(mergeRanges()).toEqual([]);
  });

  it('orders like a sort by start, then end, for any number of sorted lists', () => {
    let seed = 7;
    const next = (n: number): number => (seed = (seed * 1103515245 + 12345) % 2147483648) % n;
    for (let round = 0; round < 200; round++) {
      const lists = Array.from({ length: 1 + next(4) }, () => {
        const list: Range[] = [];
        let at = next(5);
        for (let k = next(6); k > 0; k--) {
          const start = at + next(4);
          list.push(r(start, start + 1 + next(5)));
          at = start + 1;
        }
        return list;
      });
      expect(mergeRanges(...lists)).toEqual(bySort(lists));
    }
  });
});
