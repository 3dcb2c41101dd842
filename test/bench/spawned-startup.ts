/**
 * Issue 2's start-up target, as a client sees it: a spawned `notekernel serve` on an indexed
 * vault, from spawn to the first `get_note` answer over MCP stdio, p50 ≤ 300 ms and ≤ 3× a bare
 * `node` started in the same environment in the same run (issue 12).
 * BENCH_CLI_COMPARE=<path to another bin.cjs> adds a row for that build, sampled alternately
 * with this one, so two builds compare on one machine under one load. Each row also gives the
 * server's main-thread CPU time at the answer, which a shared machine's load moves far less.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';
import { Client } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createKernel } from '../../app/index.js';
import { silentLogger } from '../../kernel/logger.js';
import { CLI } from '../support/cli.js';
import { generateVault } from '../support/generate-vault.js';
import { cpuNote, fmt, mainThreadCpuMs, percentile, type BenchRow } from './stats.js';

const RUNS = 11;

/** Spawn → the first `get_note` answer, and the server's main-thread CPU time at that answer. */
async function firstAnswer(
  cli: string,
  root: string,
  noteId: string,
  args = [cli, 'serve', '--vault', root, '--log-level', 'warn'],
): Promise<{ ms: number; cpu: number }> {
  const start = performance.now();
  const transport = new StdioClientTransport({ command: process.execPath, args });
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(transport);
  await client.callTool({ name: 'get_note', arguments: { identifier: noteId } });
  const ms = performance.now() - start;
  const cpu = mainThreadCpuMs(transport.pid);
  await client.close();
  return { ms, cpu };
}

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

/** `root` is an indexed flint vault holding `noteId`. */
export async function benchSpawnedStartup(root: string, noteId: string): Promise<BenchRow[]> {
  const other = process.env.BENCH_CLI_COMPARE;
  // The baseline starts node in the environment the MCP client gives the server (the SDK passes on
  // only HOME, PATH, SHELL, TERM, USER, LOGNAME): a variable such as NODE_EXTRA_CA_CERTS (a CA
  // bundle parsed at every start, ~50 ms here) would slow the baseline and not the server.
  const bare: number[] = [];
  const ours: number[] = [];
  const theirs: number[] = [];
  const floor: number[] = [];
  const cpu = { ours: [] as number[], theirs: [] as number[], floor: [] as number[] };
  const floorServer = await bundleFloor(path.dirname(root));
  const floorAnswer = () => firstAnswer(floorServer, root, noteId, [floorServer, root]);
  await firstAnswer(CLI, root, noteId); // the page cache holds the files, as on a used machine
  await floorAnswer();
  if (other) await firstAnswer(other, root, noteId);
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    spawnSync(process.execPath, ['-e', '0'], { env: getDefaultEnvironment() });
    bare.push(performance.now() - start);
    const mine = await firstAnswer(CLI, root, noteId);
    ours.push(mine.ms);
    cpu.ours.push(mine.cpu);
    const sdk = await floorAnswer();
    floor.push(sdk.ms);
    cpu.floor.push(sdk.cpu);
    if (!other) continue;
    const compared = await firstAnswer(other, root, noteId);
    theirs.push(compared.ms);
    cpu.theirs.push(compared.cpu);
  }
  const bareP50 = percentile(bare, 50);
  const row = (label: string, samples: number[], cpuSamples: number[], judged: boolean): BenchRow => ({
    bench: `warm start → first answer (spawned serve, MCP stdio${label})`,
    value: `p50 ${fmt(percentile(samples, 50))}, p95 ${fmt(percentile(samples, 95))}${cpuNote(cpuSamples)}`,
    target: judged ? '≤ 300 ms and ≤ 3× bare node' : '(info)',
    baseline: `bare node start ${fmt(bareP50)} (same environment)`,
    ratio: `${(percentile(samples, 50) / bareP50).toFixed(1)}× bare node`,
    pass: !judged || (percentile(samples, 50) <= 300 && percentile(samples, 50) <= 3 * bareP50),
  });
  const rows = [row('', ours, cpu.ours, true)];
  rows.push({
    bench: 'floor: the MCP SDK alone, bundled, one tool reading the note file (spawned, MCP stdio)',
    value: `p50 ${fmt(percentile(floor, 50))}, p95 ${fmt(percentile(floor, 95))}${cpuNote(cpu.floor)}`,
    target: '(info)',
    baseline: `bare node start ${fmt(bareP50)}; ours p50 ${fmt(percentile(ours, 50))}`,
    ratio: `${(percentile(floor, 50) / bareP50).toFixed(1)}× bare node; ours ${(percentile(ours, 50) / percentile(floor, 50)).toFixed(2)}× floor`,
    pass: true,
  });
  if (other) rows.push(row(`, ${other}`, theirs, cpu.theirs, false));
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
