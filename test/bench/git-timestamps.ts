/**
 * Issue 6 targets, on a generated memory root of 10,000 entries over 2,000 commits (with
 * renames, an archive folder and org folders):
 *  - created/updated for every entry in one walk of history (isomorphic-git refs + our pack
 *    reader) within 3× of `git log --name-only` over the same repository, timed in the same run;
 *  - warm (cache on disk, HEAD unchanged) ≤ 100 ms.
 * The fixture comes from `git fast-import` (~20 s, once; reused while its marker matches).
 * BENCH_GIT=0 skips it.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { silentLogger } from '../../kernel/logger.js';
import { idFromFilename } from '../../toolkit/agent-memory/entry-name.js';
import { GitTimestamps } from '../../backends/markdown-git/git/timestamps.js';
import { buildGitFixture, gitAvailable } from './git-fixture.js';
import { fmt, percentile, sample, time, type BenchRow } from './stats.js';

export async function benchGitTimestamps(workDir: string, files = 10_000, commits = 2_000): Promise<BenchRow[]> {
  if (process.env.BENCH_GIT === '0' || !gitAvailable()) {
    return [
      {
        bench: 'git timestamps',
        value: 'skipped',
        target: '—',
        baseline: process.env.BENCH_GIT === '0' ? 'BENCH_GIT=0' : 'no git binary for the fixture',
        ratio: '—',
        pass: true,
      },
    ];
  }
  const root = path.join(workDir, `git-memory-${files}-${commits}`);
  const built = await time(() => buildGitFixture(root, files, commits));
  const cacheFile = path.join(root, '.notekernel', 'git-timestamps.json');
  const idOf = (rel: string) => idFromFilename(path.posix.basename(rel));
  const open = () => {
    const timestamps = new GitTimestamps(root, cacheFile, idOf, silentLogger());
    timestamps.open();
    return timestamps;
  };

  const gitLog = await time(
    () => spawnSync('git', ['log', '--name-only', '--format=%H %at'], { cwd: root, maxBuffer: 1 << 30 }).stdout.length,
  );
  fs.rmSync(cacheFile, { force: true });
  const cold = await time(async () => {
    const timestamps = open();
    await timestamps.sync();
    await timestamps.save();
    return timestamps;
  });
  const known = built.value.paths.filter((p) => cold.value.knows(idOf(p) as string)).length;
  const rows: BenchRow[] = [
    {
      bench: `git timestamps, ${files} files × ${commits} commits, one walk (${known} entries timed)`,
      value: fmt(cold.ms),
      target: '≤ 3× git log',
      baseline: `git log --name-only ${fmt(gitLog.ms)}`,
      ratio: `${(cold.ms / gitLog.ms).toFixed(2)}× git`,
      pass: cold.ms <= 3 * gitLog.ms && known === built.value.paths.length,
    },
  ];
  const ids = built.value.paths.map((p) => idOf(p) as string);
  const warm = await sample(5, async () => {
    const timestamps = open();
    await timestamps.sync();
    if (!ids.every((id) => timestamps.knows(id))) throw new Error('the warm cache lost entries');
  });
  rows.push({
    bench: 'git timestamps, warm (cache on disk, HEAD unchanged)',
    value: `p50 ${fmt(percentile(warm, 50))}, max ${fmt(Math.max(...warm))}`,
    target: '≤ 100 ms',
    baseline: `cold walk ${fmt(cold.ms)}`,
    ratio: `${(percentile(warm, 50) / cold.ms).toFixed(3)}× cold`,
    pass: percentile(warm, 50) <= 100,
  });
  return rows;
}
