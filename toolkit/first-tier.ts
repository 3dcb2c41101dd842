/**
 * A ranking in two tiers (a question's notes holding every word, then the rest) shown with one
 * score each: the first tier's scores are lifted above every other score, each tier keeping its
 * own order, so a page's scores fall as its hits do (decision 037).
 */
export function liftFirstTier<T extends { score: number }>(rows: readonly T[], inFirst: (row: T) => boolean): T[] {
  let lowest = Infinity;
  let highest = -Infinity;
  for (const row of rows) {
    if (inFirst(row)) lowest = Math.min(lowest, row.score);
    else highest = Math.max(highest, row.score);
  }
  const lift = highest >= lowest ? highest - lowest + 1 : 0;
  return lift === 0 ? [...rows] : rows.map((row) => (inFirst(row) ? { ...row, score: row.score + lift } : row));
}
