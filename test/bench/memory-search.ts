/**
 * agent-memory's memory_search through the profile's keyword-search index (decision 037), on the
 * 10,000-entry fixture of memory-startup.ts through the library, once the index has caught up
 * (the first query waits for it); p50 over the queries. Baselines: `notes.list()`, and reading
 * every entry once (what each query cost when the plugin matched entries itself).
 * `BENCH_ONLY=memory-start`.
 */
import path from 'node:path';
import { createKernel } from '../../app/index.js';
import { silentLogger } from '../../kernel/logger.js';
import { buildGitFixture, gitAvailable } from './git-fixture.js';
import { fmt, percentile, sample, time, type BenchRow } from './stats.js';

const QUERIES = [
  'entry',
  'bench',
  'project',
  'c4 entry',
  'nothing-matches-this',
  'what did the bench entry say about the project?',
];

export async function benchMemorySearch(workDir: string, files = 10_000, commits = 2_000): Promise<BenchRow> {
  if (process.env.BENCH_GIT === '0' || !gitAvailable()) {
    return {
      bench: 'agent-memory memory_search',
      value: 'skipped',
      target: '—',
      baseline: 'BENCH_GIT=0 or no git binary',
      ratio: '—',
      pass: true,
    };
  }
  const root = path.join(workDir, `git-memory-${files}-${commits}`);
  buildGitFixture(root, files, commits);
  const kernel = await createKernel({ profile: 'agent-memory', config: {}, logger: silentLogger() });
  try {
    const vault = await kernel.openVault(root);
    await vault.call('memory_search', { query: 'warm' });
    const searches = await sample(QUERIES.length * 4, (i) =>
      vault.call('memory_search', { query: QUERIES[i % QUERIES.length] as string }),
    );
    const listings = await sample(5, () => vault.notes.list());
    const readAll = await time(async () => {
      for (const summary of await vault.notes.list()) await vault.notes.get(summary.id);
    });
    const p50 = percentile(searches, 50);
    return {
      bench: `agent-memory memory_search, ${files} entries, keyword-search index (library)`,
      value: `p50 ${fmt(p50)}, p95 ${fmt(percentile(searches, 95))}`,
      target: '(info)',
      baseline: `notes.list() p50 ${fmt(percentile(listings, 50))}; reading every entry once ${fmt(readAll.ms)}`,
      ratio: `${(p50 / percentile(listings, 50)).toFixed(2)}× the listing; ${(readAll.ms / p50).toFixed(1)}× faster than reading every entry`,
      pass: true,
    };
  } finally {
    await kernel.close();
  }
}
