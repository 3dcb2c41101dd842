/**
 * Fusion of ranked lists by their scores (decision 037). Each list's scores are divided by its
 * own best, so a leg says how close each note comes to its top answer on a 0–1 scale whatever
 * its units (bm25, cosine); a note's fused score is the weighted sum over the lists that hold it
 * within their first `depth`, each share scaled by the list's own factor for it (the keyword
 * leg's: the share of the question's terms the note holds, so a note that shares one incidental
 * word with a paraphrased question does not outvote the meaning). Measured on the development sets against Reciprocal Rank Fusion,
 * which gives a weak leg's first place as much as a strong leg's and made hybrid worse than its
 * keyword leg alone (LoCoMo recall@5 0.71 against 0.85).
 */

/** The keyword leg's share when a hybrid search fuses keyword and meaning (decision 037). */
export const KEYWORD_WEIGHT = 0.8;
/** The cosine under which a passage is not taken as about the query (decision 037). */
export const DEFAULT_MIN_SIMILARITY = 0.25;
/** How far down each list a note still earns a share. */
export const FUSION_DEPTH = 50;

export interface RankedList {
  /** Best first. */
  ids: readonly string[];
  /** Higher is better, one per id; the first is the list's best. */
  scores: ArrayLike<number>;
  weight: number;
  /** Per id, a 0–1 factor on its share (the keyword leg: how much of the question the note holds); 1 when absent. */
  factors?: ArrayLike<number>;
}

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
 * Fused scores, best first. Equal scores go to the earlier list (then the better rank there):
 * a note found by its exact words (the keyword list, passed first) should not lose a coin toss
 * to the nearest vector. Only the first `top` are returned.
 */
export function scoreFusion(lists: readonly RankedList[], top = Infinity, depth = FUSION_DEPTH): Fused {
  const at = new Map<string, number>();
  const ids: string[] = [];
  const scores: number[] = [];
  const firstList: number[] = [];
  const firstRank: number[] = [];
  lists.forEach((list, listIndex) => {
    const best = list.scores[0] ?? 0;
    for (let rank = 0; rank < list.ids.length; rank++) {
      const id = list.ids[rank]!;
      const factor = list.factors?.[rank] ?? 1;
      const share = rank < depth && best > 0 ? (list.weight * factor * Math.max(0, list.scores[rank]!)) / best : 0;
      const seen = at.get(id);
      if (seen !== undefined) scores[seen]! += share;
      else {
        at.set(id, ids.length);
        ids.push(id);
        scores.push(share);
        firstList.push(listIndex);
        firstRank.push(rank);
      }
    }
  });
  const before = (a: number, b: number) =>
    scores[b]! - scores[a]! ||
    firstList[a]! - firstList[b]! ||
    firstRank[a]! - firstRank[b]! ||
    (ids[a]! < ids[b]! ? -1 : ids[a]! > ids[b]! ? 1 : 0);
  const order = firstInOrder(ids.length, top, before);
  return {
    items: order.map((i) => ({ id: ids[i]!, score: scores[i]!, list: firstList[i]!, rank: firstRank[i]! })),
    total: ids.length,
  };
}

/** The first `top` of 0…count−1 by `before`: kept in a short sorted list while `top` is a page, else one sort. */
function firstInOrder(count: number, top: number, before: (a: number, b: number) => number): number[] {
  if (top > 100 || top * 8 >= count)
    return Array.from({ length: count }, (_, i) => i)
      .sort(before)
      .slice(0, top);
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
