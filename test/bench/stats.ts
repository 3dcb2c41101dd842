/** Timing helpers for benchmarks: wall-clock samples, percentiles, a printed table. */
import fs from 'node:fs';

export async function time<T>(fn: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await fn();
  return { ms: performance.now() - start, value };
}

export async function sample(runs: number, fn: (i: number) => Promise<unknown> | unknown): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn(i);
    out.push(performance.now() - start);
  }
  return out;
}

export function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? NaN;
}

export interface BenchRow {
  bench: string;
  value: string;
  target: string;
  baseline: string;
  ratio: string;
  pass: boolean;
}

export function fmt(ms: number): string {
  return ms < 10 ? `${ms.toFixed(2)} ms` : `${ms.toFixed(0)} ms`;
}

export function printTable(rows: readonly BenchRow[]): void {
  const headers = ['bench', 'value', 'target', 'baseline (same run)', 'ratio', 'ok'];
  const lines = rows.map((r) => [r.bench, r.value, r.target, r.baseline, r.ratio, r.pass ? 'yes' : 'NO']);
  const widths = headers.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)));
  const row = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  console.log(row(headers));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const l of lines) console.log(row(l));
}

/**
 * CPU time so far of a child's main thread (Linux: /proc/<pid>/schedstat, nanoseconds on CPU),
 * in ms; NaN elsewhere. On a machine shared with other work a start-up's wall time is mostly
 * waiting for a core; its main thread's CPU time is what a change to our code moves.
 */
export function mainThreadCpuMs(pid: number | null | undefined): number {
  if (!pid) return NaN;
  try {
    return Number(fs.readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return NaN;
  }
}

/** ` (CPU p50 N ms)` when the samples hold CPU times, else nothing. */
export function cpuNote(samples: readonly number[]): string {
  const known = samples.filter((ms) => !Number.isNaN(ms));
  return known.length ? ` (main-thread CPU p50 ${fmt(percentile(known, 50))})` : '';
}
