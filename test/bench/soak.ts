/**
 * Issue 19's soak as a bench row (BENCH_ONLY=soak, not in the default groups: it runs 10 minutes;
 * BENCH_SOAK_MINUTES to change): 8 SDK clients over Streamable HTTP on 10,000 notes, RSS after
 * warm-up against RSS at the end (target within 10 %), with throughput and p99.
 */
import fs from 'node:fs';
import path from 'node:path';
import { growthAfter, runSoak } from '../support/soak.js';
import type { BenchRow } from './stats.js';

export async function benchSoak(workDir: string): Promise<BenchRow[]> {
  const minutes = Number(process.env.BENCH_SOAK_MINUTES ?? '10');
  const root = path.join(workDir, 'soak-vault');
  fs.rmSync(root, { recursive: true, force: true });
  const report = await runSoak({ root, notes: 10_000, clients: 8, durationMs: minutes * 60_000, sampleMs: 5_000 });
  const warmUp = Math.min(120, minutes * 12);
  const { atWarmUp, end } = growthAfter(report, warmUp);
  return [
    {
      bench: `soak: 8 HTTP clients, ${minutes} min, 10,000 notes (${report.calls} calls, ${report.failed} failed)`,
      value: `RSS ${atWarmUp} MB after ${warmUp} s warm-up → ${end} MB at the end; ${report.callsPerSecond} calls/s, p50 ${report.p50Ms} ms, p99 ${report.p99Ms} ms`,
      target: 'RSS within 10 % after warm-up, no call failed',
      baseline: `RSS at start ${report.rss[0]?.[1] ?? '?'} MB`,
      ratio: `${(end / atWarmUp).toFixed(2)}× after warm-up`,
      pass: report.failed === 0 && end <= atWarmUp * 1.1,
    },
  ];
}
