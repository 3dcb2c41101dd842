/**
 * Retrieval quality of each profile's default search as an agent calls it (through the library),
 * on the public question sets in shared/bench-data/ (LoCoMo dev with the audit's corrections,
 * a SQuAD dev subset), measured exactly as the leading peer publishes its figures: see
 * shared/bench-data/README.md. Prints recall@5, recall@10, MRR and per-call p50 / p95 per
 * dataset and profile / mode; for obsidian the ceiling (per question the better of its keyword
 * and semantic legs: how far fusion is from the best it could do); on LoCoMo the share of top-5
 * hits from another conversation. Returns the rows with the issue's targets.
 *
 * `BENCH_ONLY=retrieval npm run bench`, or after a build `node dist/test/bench/retrieval.js`.
 * BENCH_DATA_DIR: the data folder (default: shared/bench-data/ found walking up from the repo).
 * RETRIEVAL_SAMPLE=N: N questions per dataset (spread evenly) for a quick run;
 * RETRIEVAL_PROFILES=flint,obsidian: only these profiles. zettelkasten's find_cards and
 * notarium's list run on LoCoMo only, on an evenly spread sample of 100 questions (RETRIEVAL_SMALL_SAMPLE).
 * Vaults are built once per run under <bench dir>/retrieval/ (obsidian's includes embedding every
 * passage with the offline model, waited for before any search is measured).
 */
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from '../support/cli.js';
import { findBenchData, loadLocomo, loadSquad, type Dataset, type Question } from './retrieval-data.js';
import { openProfile, PROFILES, vaultDir, type ProfileId, type Search } from './retrieval-profiles.js';
import { ceiling, failure, printSummaries, score, summarise, type Outcome, type Summary } from './retrieval-score.js';
import { printTable, type BenchRow } from './stats.js';

/** Profiles whose search finds cards or notes by title words only, or lists an account: a sample says enough. */
const SMALL: ReadonlySet<ProfileId> = new Set(['zettelkasten', 'notarium']);
const SQUAD_PROFILES: ReadonlySet<ProfileId> = new Set(['flint', 'agent-memory', 'obsidian']);

const envInt = (name: string): number | undefined => {
  const value = Number.parseInt(process.env[name] ?? '', 10);
  return Number.isFinite(value) && value > 0 ? value : undefined;
};

/** `n` questions spread evenly over the set, so every conversation / article is represented. */
function spread(questions: readonly Question[], n: number | undefined): Question[] {
  if (n === undefined || n >= questions.length) return [...questions];
  return Array.from({ length: n }, (_, i) => questions[Math.floor((i * questions.length) / n)] as Question);
}

async function runLeg(dataset: Dataset, questions: readonly Question[], search: Search): Promise<Outcome[]> {
  await search('warm up').catch(() => undefined); // the JIT's, SQLite's and the model's first call
  const outcomes: Outcome[] = [];
  let firstError: unknown;
  for (const question of questions) {
    const started = performance.now();
    try {
      const answer = await search(question.text);
      outcomes.push(score(dataset, question, answer.hits, performance.now() - started, answer.notice));
    } catch (error) {
      firstError ??= error;
      outcomes.push(failure(performance.now() - started));
    }
  }
  if (firstError)
    console.log(`  first failed call: ${firstError instanceof Error ? firstError.message : String(firstError)}`);
  return outcomes;
}

interface Measured {
  summaries: Summary[];
  /** Outcomes by "<dataset> <label>", for the ceiling rows. */
  outcomes: Map<string, Outcome[]>;
}

async function measure(
  workDir: string,
  dataset: Dataset,
  profiles: readonly ProfileId[],
  sample: number | undefined,
): Promise<Measured> {
  const measured: Measured = { summaries: [], outcomes: new Map() };
  for (const profile of profiles) {
    const questions = spread(
      dataset.questions,
      SMALL.has(profile) ? Math.min(sample ?? Infinity, envInt('RETRIEVAL_SMALL_SAMPLE') ?? 100) : sample,
    );
    const started = performance.now();
    const vault = await openProfile(profile, dataset.docs, vaultDir(workDir, dataset.name, profile));
    console.log(
      `  ${dataset.name} ${profile}: ${dataset.docs.length} notes written and indexed in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    try {
      for (const leg of vault.legs) {
        const outcomes = await runLeg(dataset, questions, leg.search);
        measured.outcomes.set(`${dataset.name} ${leg.label}`, outcomes);
        measured.summaries.push(summarise(dataset, leg.label, outcomes));
      }
    } finally {
      await vault.close();
    }
  }
  const keyword = measured.outcomes.get(`${dataset.name} obsidian search_vault keyword`);
  const semantic = measured.outcomes.get(`${dataset.name} obsidian search_vault semantic`);
  if (keyword && semantic)
    measured.summaries.push(
      summarise(dataset, 'obsidian ceiling: best of keyword, semantic', ceiling(keyword, semantic), false),
    );
  return measured;
}

const TARGETS: Record<string, { r5: number; mrr: number }> = {
  'LoCoMo obsidian search_vault (hybrid)': { r5: 0.88, mrr: 0.78 },
  'LoCoMo flint search_notes': { r5: 0.85, mrr: 0.75 },
  'LoCoMo agent-memory memory_search': { r5: 0.85, mrr: 0.75 },
};

const pair = (s: Summary) => `R@5 ${s.r5.toFixed(3)} / MRR ${s.mrr.toFixed(3)}`;

function benchRows(summaries: readonly Summary[]): BenchRow[] {
  const find = (dataset: string, label: string) => summaries.find((s) => s.dataset === dataset && s.label === label);
  return summaries.map((s) => {
    const bench = `retrieval ${s.dataset}, ${s.label} (${s.questions} questions)`;
    const value = `${pair(s)}, R@10 ${s.r10.toFixed(3)}${Number.isNaN(s.p50) ? '' : ` (p50 ${s.p50.toFixed(1)} ms)`}`;
    const target = TARGETS[`${s.dataset} ${s.label}`];
    if (target) {
      const keyword = find(s.dataset, 'obsidian search_vault keyword');
      const baseline =
        s.label.startsWith('obsidian') && keyword
          ? `keyword mode ${pair(keyword)}; basic-memory 0.823 / 0.718 (10 conversations)`
          : 'basic-memory R@5 0.823 / MRR 0.718 (10 conversations)';
      const ratio = `${(s.r5 / target.r5).toFixed(2)}× / ${(s.mrr / target.mrr).toFixed(2)}× the target`;
      return {
        bench,
        value,
        target: `R@5 ≥ ${target.r5}, MRR ≥ ${target.mrr}`,
        baseline,
        ratio,
        pass: s.r5 >= target.r5 && s.mrr >= target.mrr,
      };
    }
    const keyword = find(s.dataset, 'obsidian search_vault keyword');
    const semantic = find(s.dataset, 'obsidian search_vault semantic');
    if (s.dataset === 'SQuAD' && s.label === 'obsidian search_vault (hybrid)' && keyword && semantic) {
      const best = { r5: Math.max(keyword.r5, semantic.r5), mrr: Math.max(keyword.mrr, semantic.mrr) };
      return {
        bench,
        value,
        target: '≥ keyword and ≥ semantic (R@5, MRR)',
        baseline: `keyword ${pair(keyword)}; semantic ${pair(semantic)}`,
        ratio: `${(s.r5 / best.r5).toFixed(2)}× / ${(s.mrr / best.mrr).toFixed(2)}× the better leg`,
        pass: s.r5 >= best.r5 && s.mrr >= best.mrr,
      };
    }
    return { bench, value, target: '(info)', baseline: '-', ratio: '-', pass: true };
  });
}

export async function benchRetrieval(workDir: string): Promise<BenchRow[]> {
  const dataDir = findBenchData(REPO_ROOT);
  if (!dataDir) {
    console.log(
      'retrieval bench: no shared/bench-data/ beside the repository (set BENCH_DATA_DIR to its folder); skipped',
    );
    return [];
  }
  const sample = envInt('RETRIEVAL_SAMPLE');
  const wanted = process.env.RETRIEVAL_PROFILES?.split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  const unknown = wanted?.filter((p) => !(PROFILES as readonly string[]).includes(p)) ?? [];
  if (unknown.length)
    throw new Error(`RETRIEVAL_PROFILES: unknown profile ${unknown.join(', ')} (known: ${PROFILES.join(', ')})`);
  const profiles = PROFILES.filter((p) => !wanted || wanted.includes(p));
  const started = performance.now();
  console.log(
    `retrieval bench: data ${dataDir}, ${os.availableParallelism()} cores, load average ${os.loadavg()[0]!.toFixed(1)}${sample ? `, ${sample} questions per dataset` : ''}`,
  );
  const summaries: Summary[] = [];
  for (const dataset of [loadLocomo(dataDir), loadSquad(dataDir)]) {
    console.log(
      `  ${dataset.name}: ${dataset.docs.length} notes, ${dataset.questions.length} questions${dataset.skipped ? ` (${dataset.skipped} skipped: their evidence names no session)` : ''}`,
    );
    const chosen = profiles.filter((p) => dataset.name === 'LoCoMo' || SQUAD_PROFILES.has(p));
    summaries.push(...(await measure(workDir, dataset, chosen, sample)).summaries);
  }
  printSummaries(summaries);
  console.log(
    `retrieval bench took ${((performance.now() - started) / 1000).toFixed(0)} s (vaults in ${path.join(workDir, 'retrieval')})`,
  );
  return benchRows(summaries);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  printTable(await benchRetrieval(process.env.BENCH_DIR ?? path.join(REPO_ROOT, '.bench-data')));
}
