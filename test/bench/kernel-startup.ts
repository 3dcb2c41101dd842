/**
 * Issue "kernel foundation" targets, on a generated 10,000-note vault:
 *  - cold index ≥ 3,000 notes/s (baseline: reading and splitting every file, nothing else);
 *  - start-up on an unchanged, indexed vault to the first tool answer ≤ 300 ms, in-process and
 *    as a spawned `notekernel serve` answering an MCP client (baseline: a bare `node` start).
 */
import fs from 'node:fs';
import path from 'node:path';
import { createKernel } from '../../app/index.js';
import { silentLogger } from '../../kernel/logger.js';
import { generateVault } from '../support/generate-vault.js';
import { benchFlintNotes } from './flint-notes.js';
import { benchSpawnedStartup } from './spawned-startup.js';
import { fmt, percentile, sample, time, type BenchRow } from './stats.js';

export async function benchKernelStartup(workDir: string, count = 10_000): Promise<BenchRow[]> {
  const root = path.join(workDir, `vault-${count}`);
  fs.rmSync(root, { recursive: true, force: true });
  const generated = generateVault(root, count);
  const rows: BenchRow[] = [];

  const baseline = await time(() => {
    for (const note of generated.notes) {
      const text = fs.readFileSync(path.join(root, note.id), 'utf8');
      text.indexOf('\n---', 4);
    }
  });

  // The index is built behind the open (decision 013): a count waits for it.
  const cold = await time(async () => {
    const kernel = await createKernel({ profile: 'flint', config: {}, logger: silentLogger() });
    const vault = await kernel.openVault(root);
    await vault.notes.store.count();
    await kernel.close();
    return vault;
  });
  const rate = count / (cold.ms / 1000);
  rows.push({
    bench: `cold index, ${count} notes (${(generated.bytes / 1e6).toFixed(1)} MB)`,
    value: `${Math.round(rate)} notes/s (${fmt(cold.ms)})`,
    target: '≥ 3000 notes/s',
    baseline: `read+split files ${fmt(baseline.ms)}`,
    ratio: `${(cold.ms / baseline.ms).toFixed(1)}× baseline`,
    pass: rate >= 3000,
  });

  // "Indexed" includes the plugins' own indexes: let the links plugin finish its first build
  // (it runs in the background and stops when a vault closes early).
  {
    const kernel = await createKernel({ profile: 'flint', config: {}, logger: silentLogger() });
    const vault = await kernel.openVault(root);
    await vault.call('find_broken_links', {});
    await kernel.close();
  }

  const warm = await sample(5, async () => {
    const kernel = await createKernel({ profile: 'flint', config: {}, logger: silentLogger() });
    const vault = await kernel.openVault(root);
    await vault.call('get_note', { identifier: generated.notes[7]?.id });
    await kernel.close();
  });
  const indexed = await sample(5, async () => {
    const kernel = await createKernel({ profile: 'flint', config: {}, logger: silentLogger() });
    const vault = await kernel.openVault(root);
    await vault.notes.store.count();
    await kernel.close();
  });
  rows.push({
    bench: 'warm start → first answer (in-process)',
    value: `p50 ${fmt(percentile(warm, 50))}, p95 ${fmt(percentile(warm, 95))}`,
    target: '≤ 300 ms',
    baseline: `cold index ${fmt(cold.ms)}`,
    ratio: `${(percentile(warm, 50) / cold.ms).toFixed(3)}× cold`,
    pass: percentile(warm, 50) <= 300,
  });
  rows.push({
    bench: 'warm start → index checked against the files (in-process)',
    value: `p50 ${fmt(percentile(indexed, 50))}, p95 ${fmt(percentile(indexed, 95))}`,
    target: '(info)',
    baseline: `first answer p50 ${fmt(percentile(warm, 50))}`,
    ratio: `+${fmt(percentile(indexed, 50) - percentile(warm, 50))}`,
    pass: true,
  });

  rows.push(...(await benchSpawnedStartup(root, generated.notes[7]?.id as string)));
  // The flint note benches reuse this indexed vault rather than generating another.
  const idleSeconds = Number.parseInt(process.env.BENCH_IDLE_SECONDS ?? '30', 10);
  rows.push(
    ...(await benchFlintNotes(
      root,
      generated.notes.map((n) => n.id),
      idleSeconds,
    )),
  );
  return rows;
}
