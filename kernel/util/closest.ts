/**
 * The name `key` is a near miss of, if any: a typo to refuse with "did you mean", not another
 * word (decision 003: tool arguments, and note types on create_note). Near: the same name but
 * for case, `_` and `-` (`contentHash` for `content_hash`), or at most 2 edits away and at most
 * a third of the name's length (`feilds`, `limt`, `typ`). Further (`timeout`) is no typo.
 */
export function nearMiss(key: string, names: readonly string[]): string | undefined {
  const fold = (name: string) => name.toLowerCase().replace(/[_-]/g, '');
  const folded = fold(key);
  let best: string | undefined;
  let bestDistance = Infinity;
  let bestRaw = Infinity;
  for (const name of names) {
    const distance = editDistance(folded, fold(name));
    // Twins that fold alike (newTitle, new_title): the one spelt like the key wins.
    const raw = distance <= bestDistance ? editDistance(key.toLowerCase(), name.toLowerCase()) : Infinity;
    if (distance < bestDistance || (distance === bestDistance && raw < bestRaw))
      [best, bestDistance, bestRaw] = [name, distance, raw];
  }
  if (best === undefined) return undefined;
  return bestDistance === 0 ||
    (bestDistance <= 2 && bestDistance <= Math.ceil(Math.min(folded.length, fold(best).length) / 3))
    ? best
    : undefined;
}

export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(
        (previous[j] as number) + 1,
        (current[j - 1] as number) + 1,
        (previous[j - 1] as number) + cost,
      );
    }
    previous = current;
  }
  return previous[b.length] as number;
}
