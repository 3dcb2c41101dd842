/**
 * The retrieval bench's figures, as the leading peer computes them: per question recall@5 and
 * recall@10 (share of the ground-truth notes among the first 5 / 10 hits) and the reciprocal rank
 * of the first ground-truth hit among the 10, averaged over questions; latency per call.
 */
import type { Dataset, Question } from './retrieval-data.js';
import { fmt, percentile } from './stats.js';

export interface Outcome {
  r5: number;
  r10: number;
  rr: number;
  ms: number;
  hits: number;
  unmapped: number;
  /** Top-5 hits that map to a note of another group (LoCoMo: another conversation). */
  wrongGroup: number;
  top5: number;
  failed: boolean;
  /** The answer's notice (vectors still being built, the embedder down), if any. */
  notice?: string;
}

export function score(
  dataset: Dataset,
  question: Question,
  fields: readonly string[][],
  ms: number,
  notice?: string,
): Outcome {
  const ids = fields
    .slice(0, 10)
    .map((candidates) => candidates.map((c) => dataset.resolve(c)).find((id) => id !== undefined));
  const truth = new Set(question.truth);
  const found = (k: number) =>
    new Set(ids.slice(0, k).filter((id): id is string => id !== undefined && truth.has(id))).size / truth.size;
  const first = ids.findIndex((id) => id !== undefined && truth.has(id));
  const top5 = ids.slice(0, 5).filter((id): id is string => id !== undefined);
  const groupOf = dataset.groupOf;
  return {
    r5: found(5),
    r10: found(10),
    rr: first === -1 ? 0 : 1 / (first + 1),
    ms,
    hits: ids.length,
    unmapped: ids.filter((id) => id === undefined).length,
    wrongGroup: groupOf ? top5.filter((id) => groupOf(id) !== question.group).length : 0,
    top5: top5.length,
    failed: false,
    ...(notice !== undefined ? { notice } : {}),
  };
}

export const failure = (ms: number): Outcome => ({
  r5: 0,
  r10: 0,
  rr: 0,
  ms,
  hits: 0,
  unmapped: 0,
  wrongGroup: 0,
  top5: 0,
  failed: true,
});

export interface Summary {
  dataset: string;
  label: string;
  questions: number;
  r5: number;
  r10: number;
  mrr: number;
  /** NaN for derived rows (the ceiling), which made no calls of their own. */
  p50: number;
  p95: number;
  hits: number;
  unmapped: number;
  /** Share of mapped top-5 hits from another conversation; NaN when the dataset has no groups. */
  wrongShare: number;
  failed: number;
  /** Answers that carried a notice, and the first one's text. */
  noticed: number;
  firstNotice?: string;
}

const mean = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : NaN);
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

export function summarise(dataset: Dataset, label: string, outcomes: readonly Outcome[], timed = true): Summary {
  const ms = outcomes.map((o) => o.ms);
  return {
    dataset: dataset.name,
    label,
    questions: outcomes.length,
    r5: mean(outcomes.map((o) => o.r5)),
    r10: mean(outcomes.map((o) => o.r10)),
    mrr: mean(outcomes.map((o) => o.rr)),
    p50: timed ? percentile(ms, 50) : NaN,
    p95: timed ? percentile(ms, 95) : NaN,
    hits: sum(outcomes.map((o) => o.hits)),
    unmapped: sum(outcomes.map((o) => o.unmapped)),
    wrongShare: dataset.groupOf ? sum(outcomes.map((o) => o.wrongGroup)) / sum(outcomes.map((o) => o.top5)) : NaN,
    failed: outcomes.filter((o) => o.failed).length,
    noticed: outcomes.filter((o) => o.notice !== undefined).length,
    firstNotice: outcomes.find((o) => o.notice !== undefined)?.notice,
  };
}

/** Per question the better of two legs, metric by metric: what a perfect fusion of them could reach. */
export function ceiling(a: readonly Outcome[], b: readonly Outcome[]): Outcome[] {
  return a.map((x, i) => {
    const y = b[i] as Outcome;
    return {
      r5: Math.max(x.r5, y.r5),
      r10: Math.max(x.r10, y.r10),
      rr: Math.max(x.rr, y.rr),
      ms: NaN,
      hits: 0,
      unmapped: 0,
      wrongGroup: 0,
      top5: 0,
      failed: false,
    };
  });
}

const figure = (n: number) => (Number.isNaN(n) ? '-' : n.toFixed(3));
const millis = (n: number) => (Number.isNaN(n) ? '-' : fmt(n));
const share = (n: number) => (Number.isNaN(n) ? '-' : `${(n * 100).toFixed(0)} %`);

export function printSummaries(summaries: readonly Summary[]): void {
  const headers = [
    'dataset',
    'profile / mode',
    'questions',
    'recall@5',
    'recall@10',
    'MRR',
    'p50',
    'p95',
    'top-5 from another conversation',
  ];
  const lines = summaries.map((s) => [
    s.dataset,
    s.label,
    String(s.questions),
    figure(s.r5),
    figure(s.r10),
    figure(s.mrr),
    millis(s.p50),
    millis(s.p95),
    share(s.wrongShare),
  ]);
  const widths = headers.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)));
  const row = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  console.log(row(headers));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const l of lines) console.log(row(l));
  for (const s of summaries) {
    const problems = [
      s.unmapped ? `${s.unmapped} of ${s.hits} hits named no note of the set` : '',
      s.failed ? `${s.failed} calls failed (scored as no hits)` : '',
      s.noticed ? `${s.noticed} answers carried a notice, the first: "${s.firstNotice}"` : '',
    ].filter(Boolean);
    if (problems.length) console.log(`  ${s.dataset} ${s.label}: ${problems.join('; ')}`);
  }
  const hits = sum(summaries.map((s) => s.hits));
  console.log(`hits that could not be mapped back to a note: ${sum(summaries.map((s) => s.unmapped))} of ${hits}`);
}
