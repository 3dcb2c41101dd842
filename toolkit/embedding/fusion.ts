/**
 * Reciprocal Rank Fusion: each ranked list gives an item 1 / (k + rank), summed over the lists.
 * It needs no common scale between a bm25 score and a cosine, and k = 60 (Cormack et al., 2009)
 * keeps one list's first place from drowning what both lists rank well.
 */
export const RRF_K = 60;

export interface FusedItem {
  id: string;
  score: number;
  /** The first list that holds the id, and its 0-based rank there (where a caller finds its own entry). */
  list: number;
  rank: number;
}

export interface Fused {
  /** The first `top` items, best first. */
  items: FusedItem[];
  /** How many ids the lists hold between them. */
  total: number;
}

/**
 * Fused scores, best first; `lists` hold ids best first (rank 1 is the first element). Equal
 * scores go to the earlier list (then the better rank there): each list's first place scores the
 * same 1/(k+1), and a note found by its exact words (the keyword list, passed first) should not
 * lose a coin toss to the nearest vector. Only the first `top` are ordered and returned: a search
 * fuses thousands of ids to show ten.
 */
export function reciprocalRankFusion(lists: ReadonlyArray<readonly string[]>, top = Infinity, k = RRF_K): Fused {
  // Parallel arrays, one entry per id: an object per id per list (then a spread per result) cost
  // more than the rest of the fusion (decision 023).
  const at = new Map<string, number>();
  const ids: string[] = [];
  const scores: number[] = [];
  const firstList: number[] = [];
  const firstRank: number[] = [];
  lists.forEach((list, listIndex) => {
    for (let rank = 0; rank < list.length; rank++) {
      const id = list[rank]!;
      const score = 1 / (k + rank + 1);
      const seen = at.get(id);
      if (seen !== undefined) scores[seen]! += score;
      else {
        at.set(id, ids.length);
        ids.push(id);
        scores.push(score);
        firstList.push(listIndex);
        firstRank.push(rank);
      }
    }
  });
  const before = (a: number, b: number) => scores[b]! - scores[a]! || firstList[a]! - firstList[b]! || firstRank[a]! - firstRank[b]! || (ids[a]! < ids[b]! ? -1 : ids[a]! > ids[b]! ? 1 : 0);
  const order = firstInOrder(ids.length, top, before);
  return { items: order.map((i) => ({ id: ids[i]!, score: scores[i]!, list: firstList[i]!, rank: firstRank[i]! })), total: ids.length };
}

/** The first `top` of 0…count−1 by `before`: kept in a short sorted list while `top` is a page, else one sort. */
function firstInOrder(count: number, top: number, before: (a: number, b: number) => number): number[] {
  if (top > 100 || top * 8 >= count) return Array.from({ length: count }, (_, i) => i).sort(before).slice(0, top);
  const kept: number[] = [];
  for (let i = 0; i < count; i++) {
    if (kept.length === top && before(i, kept[top - 1]!) >= 0) continue;
    let at = kept.length;
    while (at > 0 && before(i, kept[at - 1]!) < 0) at--;
    kept.splice(at, 0, i);
    if (kept.length > top) kept.pop();
  }
  return kept;
}
