/**
 * Files a backend does not read as notes, grouped by reason with a few example paths: what
 * `notekernel index` prints and what the one warning at open says, so a vault whose notes
 * sit where the profile does not look is never silently half-read.
 */
export interface SkippedFile {
  path: string;
  reason: string;
}

export interface SkipGroup {
  reason: string;
  count: number;
  examples: string[];
}

export function groupSkipped(skipped: readonly SkippedFile[], examples = 3): SkipGroup[] {
  const groups = new Map<string, SkipGroup>();
  for (const { path, reason } of skipped) {
    let group = groups.get(reason);
    if (!group) groups.set(reason, (group = { reason, count: 0, examples: [] }));
    group.count += 1;
    if (group.examples.length < examples) group.examples.push(path);
  }
  return [...groups.values()].sort((a, b) => b.count - a.count);
}

/** One line for a log: "3 files not read as notes: 2 at the vault root … (e.g. a.md, b.md); 1 …". */
export function describeSkipped(skipped: readonly SkippedFile[]): string {
  const groups = groupSkipped(skipped, 2);
  const parts = groups.map((g) => `${g.count} ${g.reason} (e.g. ${g.examples.join(', ')})`);
  return `${skipped.length} file${skipped.length === 1 ? '' : 's'} not read as notes: ${parts.join('; ')}`;
}
