/**
 * A unified diff of two texts, line by line (what `diff -u` prints, without the file header), for
 * dry runs: a note is a few hundred lines at most, so a plain longest-common-subsequence table
 * is fast enough and needs no dependency. Larger texts fall back to one hunk replacing all.
 */
const CONTEXT = 3;
const MAX_CELLS = 4_000_000;

type Op = { kind: ' ' | '-' | '+'; line: string };

export function unifiedDiff(before: string, after: string): string {
  if (before === after) return '';
  const a = splitLines(before);
  const b = splitLines(after);
  const ops =
    (a.length + 1) * (b.length + 1) > MAX_CELLS
      ? [...a.map((line) => ({ kind: '-' as const, line })), ...b.map((line) => ({ kind: '+' as const, line }))]
      : lcsOps(a, b);
  return hunks(ops).join('');
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function lcsOps(a: string[], b: string[]): Op[] {
  const n = a.length;
  const m = b.length;
  const table = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    const row = table[i] as Uint32Array;
    const below = table[i + 1] as Uint32Array;
    for (let j = m - 1; j >= 0; j--)
      row[j] = a[i] === b[j] ? (below[j + 1] as number) + 1 : Math.max(below[j] as number, row[j + 1] as number);
  }
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      ops.push({ kind: ' ', line: a[i] as string });
      i++;
      j++;
    } else if (((table[i + 1] as Uint32Array)[j] as number) >= ((table[i] as Uint32Array)[j + 1] as number))
      ops.push({ kind: '-', line: a[i++] as string });
    else ops.push({ kind: '+', line: b[j++] as string });
  }
  while (i < n) ops.push({ kind: '-', line: a[i++] as string });
  while (j < m) ops.push({ kind: '+', line: b[j++] as string });
  return ops;
}

function hunks(ops: Op[]): string[] {
  const out: string[] = [];
  let k = 0;
  let oldLine = 1;
  let newLine = 1;
  const lineAt: Array<{ old: number; new: number }> = [];
  for (const op of ops) {
    lineAt.push({ old: oldLine, new: newLine });
    if (op.kind !== '+') oldLine++;
    if (op.kind !== '-') newLine++;
  }
  while (k < ops.length) {
    while (k < ops.length && (ops[k] as Op).kind === ' ') k++;
    if (k >= ops.length) break;
    const start = Math.max(0, k - CONTEXT);
    let end = k;
    // A hunk runs on while the next change is within two contexts of the last one.
    for (let quiet = 0; end < ops.length && quiet <= 2 * CONTEXT; end++)
      quiet = (ops[end] as Op).kind === ' ' ? quiet + 1 : 0;
    end = Math.min(ops.length, trimTail(ops, end) + CONTEXT);
    const slice = ops.slice(start, end);
    const oldCount = slice.filter((o) => o.kind !== '+').length;
    const newCount = slice.filter((o) => o.kind !== '-').length;
    const at = lineAt[start] as { old: number; new: number };
    out.push(`@@ -${oldCount ? at.old : at.old - 1},${oldCount} +${newCount ? at.new : at.new - 1},${newCount} @@\n`);
    for (const o of slice) out.push(`${o.kind}${o.line}\n`);
    k = end;
  }
  return out;
}

/** The index just past the last change before `end`. */
function trimTail(ops: Op[], end: number): number {
  let last = end - 1;
  while (last >= 0 && (ops[last] as Op).kind === ' ') last--;
  return last + 1;
}
