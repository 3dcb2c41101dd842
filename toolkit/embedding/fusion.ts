/**
 * Reciprocal Rank Fusion: each ranked list gives an item 1 / (k + rank), summed over the lists.
 * It needs no common scale between a bm25 score and a cosine, and k = 60 (Cormack et al., 2009)
 * keeps one list's first place from drowning what both lists rank well.
 */
export const RRF_K = 60;

/**
 * Fused scores, best first; `lists` hold ids best first (rank 1 is the first element). Equal
 * scores go to the earlier list (then the better rank there): each list's first place scores the
 * same 1/(k+1), and a note found by its exact words (the keyword list, passed first) should not
 * lose a coin toss to the nearest vector.
 */
export function reciprocalRankFusion(lists: ReadonlyArray<readonly string[]>, k = RRF_K): Array<{ id: string; score: number }> {
  const fused = new Map<string, { id: string; score: number; list: number; rank: number }>();
  lists.forEach((list, listIndex) =>
    list.forEach((id, index) => {
      const seen = fused.get(id);
      if (seen) seen.score += 1 / (k + index + 1);
      else fused.set(id, { id, score: 1 / (k + index + 1), list: listIndex, rank: index });
    }),
  );
  return [...fused.values()]
    .sort((a, b) => b.score - a.score || a.list - b.list || a.rank - b.rank || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map(({ id, score }) => ({ id, score }));
}
