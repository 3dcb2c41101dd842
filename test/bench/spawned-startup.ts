/**
 * Issue 28's start-up target, as a client sees it: a spawned `notekernel serve` on an indexed
 * vault, from spawn to the first `get_note` answer over MCP stdio, p50 within 2× the v2 SDK's own
 * floor (sdk-floor-server.ts, bundled the same way) measured in the same run, for each era's
 * opening: a 2025 client's initialize handshake and a 2026-07-28 client's one enveloped request.
 * A bare `node` start in the same environment is printed beside it (issue 12's ≤ 3× bare node,
 * out of reach under the SDK alone: decision 035). BENCH_CLI_COMPARE=<path to another bin.cjs>
 * adds rows for that build, sampled alternately with this one, so two builds compare on one
 * machine under one load. Each row also gives the server's main-thread CPU time at the answer,
 * which a shared machine's load moves far less.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { createKernel } from '../../app/index.js';
import { silentLogger } from '../../kernel/logger.js';
import { CLI } from '../support/cli.js';
import { generateVault } from '../support/generate-vault.js';
import { cpuNote, fmt, percentile, type BenchRow } from './stats.js';
import { firstAnswer, type Opening } from './stdio-opening.js';

const RUNS = 11;
const OPENINGS: Record<Opening, string> = {
  legacy: '2025 opening: initialize, then tools/call',
  modern: '2026-07-28 opening: one tools/call with the _meta envelope',
};

/** The SDK-only server (sdk-floor-server.ts) bundled into one CommonJS file, as our CLI is bundled. */
async function bundleFloor(outDir: string): Promise<string> {
  const file = path.join(outDir, 'sdk-floor.cjs');
  const build = await rolldown({
    input: fileURLToPath(new URL('./sdk-floor-server.js', import.meta.url)),
    platform: 'node',
    logLevel: 'silent',
  });
  await build.write({ file, format: 'cjs' });
  await build.close();
  // Started as bin.cjs starts our bundle: with Node's compile cache where Node has one (22.1+),
  // so on such a Node the floor and our server both run from it.
  const start = path.join(outDir, 'sdk-floor-start.cjs');
  fs.writeFileSync(start, "require('node:module').enableCompileCache?.();\nrequire('./sdk-floor.cjs');\n");
  return start;
}

interface Samples {
  ms: number[];
  cpu: number[];
}

/** `root` is an indexed flint vault holding `noteId`. */
export async function benchSpawnedStartup(root: string, noteId: string): Promise<BenchRow[]> {
  const floorServer = await bundleFloor(path.dirname(root));
  const servers: Record<string, string[]> = {
    ours: [CLI, 'serve', '--vault', root, '--log-level', 'warn'],
    floor: [floorServer, root],
  };
  const other = process.env.BENCH_CLI_COMPARE;
  if (other) servers.other = [other, 'serve', '--vault', root, '--log-level', 'warn'];
  const samples = new Map<string, Samples>();
  const take = async (server: string, opening: Opening) => {
    const answer = await firstAnswer(servers[server] as string[], opening, noteId);
    const key = `${server} ${opening}`;
    const into = samples.get(key) ?? { ms: [], cpu: [] };
    into.ms.push(answer.ms);
    into.cpu.push(answer.cpu);
    samples.set(key, into);
  };
  // The page cache holds the files (and Node 22+ the compile cache), as on a used machine.
  for (const args of Object.values(servers)) await firstAnswer(args, 'legacy', noteId);
  // The baseline starts node in the environment the MCP client gives the server: a variable such as
  // NODE_EXTRA_CA_CERTS (a CA bundle parsed at every start, ~50 ms here) would slow the baseline and not the server.
  const bare: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    spawnSync(process.execPath, ['-e', '0'], { env: getDefaultEnvironment() });
    bare.push(performance.now() - start);
    // Eras and servers alternate inside each run, so a change in the machine's load lands on all of them.
    for (const opening of Object.keys(OPENINGS) as Opening[])
      for (const server of Object.keys(servers)) await take(server, opening);
  }
  const bareP50 = percentile(bare, 50);
  const p50 = (key: string) => percentile(samples.get(key)?.ms ?? [], 50);
  const cpuP50 = (key: string) => percentile(samples.get(key)?.cpu ?? [], 50);
  const value = (key: string) => {
    const { ms, cpu } = samples.get(key) as Samples;
    return `p50 ${fmt(percentile(ms, 50))}, p95 ${fmt(percentile(ms, 95))}${cpuNote(cpu)}`;
  };
  const rows: BenchRow[] = [];
  for (const [opening, label] of Object.entries(OPENINGS) as Array<[Opening, string]>) {
    const floor = p50(`floor ${opening}`);
    // Wall time is what a client waits; on a loaded machine it grows faster than CPU time (the longer
    // start waits more for a core), so the main-thread CPU ratio is printed beside it.
    const ratio = (server: string) =>
      `${(p50(`${server} ${opening}`) / floor).toFixed(2)}× floor (CPU ${(cpuP50(`${server} ${opening}`) / cpuP50(`floor ${opening}`)).toFixed(2)}×)`;
    rows.push({
      bench: `warm start → first answer (spawned serve, MCP stdio, ${label})`,
      value: value(`ours ${opening}`),
      target: '≤ 2× the SDK floor',
      baseline: `SDK floor p50 ${fmt(floor)}`,
      ratio: `${ratio('ours')}; ${(p50(`ours ${opening}`) / bareP50).toFixed(1)}× bare node`,
      pass: p50(`ours ${opening}`) <= 2 * floor,
    });
    rows.push({
      bench: `floor: the v2 MCP SDK alone, bundled, one tool reading the note file (${label})`,
      value: value(`floor ${opening}`),
      target: '(info)',
      baseline: `bare node start ${fmt(bareP50)} (same environment)`,
      ratio: `${(floor / bareP50).toFixed(1)}× bare node`,
      pass: true,
    });
    if (other)
      rows.push({
        bench: `warm start → first answer (${other}, ${label})`,
        value: value(`other ${opening}`),
        target: '(info)',
        baseline: `ours p50 ${fmt(p50(`ours ${opening}`))}`,
        ratio: ratio('other'),
        pass: true,
      });
  }
  return rows;
}

/** `BENCH_ONLY=spawned`: this row alone, on a generated vault kept between runs (and its index). */
export async function benchSpawnedStartupAlone(workDir: string, count: number): Promise<BenchRow[]> {
  const root = path.join(workDir, `vault-${count}-spawned`);
  const marker = path.join(workDir, `vault-${count}-spawned.json`);
  let noteId: string;
  if (fs.existsSync(marker)) {
    noteId = (JSON.parse(fs.readFileSync(marker, 'utf8')) as { noteId: string }).noteId;
  } else {
    fs.rmSync(root, { recursive: true, force: true });
    noteId = generateVault(root, count).notes[7]?.id as string;
    fs.writeFileSync(marker, JSON.stringify({ noteId }));
  }
  const kernel = await createKernel({ profile: 'flint', config: {}, logger: silentLogger() });
  const vault = await kernel.openVault(root);
  await vault.call('find_broken_links', {});
  await vault.notes.store.count();
  await kernel.close();
  return benchSpawnedStartup(root, noteId);
}
