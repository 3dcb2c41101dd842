/**
 * Reciprocal Rank Fusion: each ranked list gives an item 1 / (k + rank), summed over the lists.
 * It needs no common scale between a bm25 score and a cosine, and k = 60 (Cormack et al., 2009)
 * keeps one list's first place from drowning what both lists rank well.
 */
export const RRF_K = 60;

/** Fused scores, best first; `lists` hold ids best first (rank 1 is the first element). */
export function reciprocalRankFusion(lists: ReadonlyArray<readonly string[]>, k = RRF_K): Array<{ id: string; score: number }> {
  const scores = new Map<string, number>();
  for (const list of lists) list.forEach((id, index) => scores.set(id, (scores.get(id) ?? 0) + 1 / (k + index + 1)));
  return [...scores].map(([id, score]) => ({ id, score })).sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
