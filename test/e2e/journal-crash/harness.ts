/**
 * The kill -9 harness of journal-crash.test.ts: a scenario is measured once on a copy of its
 * seed, then killed at each point (a journal hook or a timer), restarted, and its files, temp
 * files, served answers and `doctor` report checked against the before and after states.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import yaml from 'js-yaml';
import { callTool, connectStdio, type StdioSession } from '../../support/mcp.js';
import { runCli } from '../../support/run-cli.js';
import { removeDir, tempDir } from '../../support/temp.js';

const CRASH_PRELOAD = fileURLToPath(new URL('../../support/journal-crash-preload.cjs', import.meta.url));

const dirs: string[] = [];

/** Removes every vault a scenario made (seed, reference and one per crash point). */
export async function removeCrashVaults(): Promise<void> {
  await Promise.all(dirs.map(removeDir));
}

type Files = Map<string, string>;

/** Every visible file under the root (hidden folders are metadata, not notes). */
export function readFiles(root: string): Files {
  const out: Files = new Map();
  for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    const rel = path.relative(root, path.join(entry.parentPath, entry.name));
    if (entry.isFile() && !rel.split(path.sep).some((part) => part.startsWith('.')))
      out.set(rel, fs.readFileSync(path.join(root, rel), 'utf8'));
  }
  return out;
}

/** Temp files where notes live (the metadata folders hold no notes). */
function tempFiles(root: string): string[] {
  return (fs.readdirSync(root, { recursive: true }) as string[]).filter(
    (rel) =>
      path.basename(rel).startsWith('.nk-tmp-') &&
      !path
        .dirname(rel)
        .split(path.sep)
        .some((p) => p.startsWith('.')),
  );
}

/** Closes the client and waits until the server process is gone (its folder may then be removed). */
async function closeAndWait(session: StdioSession): Promise<void> {
  const pid = session.pid();
  await session.close().catch(() => undefined);
  for (let waited = 0; pid !== null && waited < 10_000; waited += 20) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A flint note's title and body: what a rename changes (its `updated` stamp differs run to run). */
export function flintState(text: string): string {
  const match = /^---\n([\s\S]*?)\n---\n\n?([\s\S]*)$/.exec(text);
  if (!match) return `unparsable:${text}`;
  const meta = yaml.load(match[1] ?? '', { schema: yaml.CORE_SCHEMA }) as { title: string };
  return `${meta.title}\n${match[2]}`;
}

export interface Scenario {
  /** A read-only tool with no arguments. */
  probe: string;
  /** Builds the vault as it is before the operation. */
  seed(root: string): Promise<void>;
  serveArgs(root: string): string[];
  /** Runs the operation over MCP (the promise may never settle when the server is killed). */
  run(session: Awaited<ReturnType<typeof connectStdio>>): Promise<unknown>;
  /** Per file key (a path, or an id where the name changes), the state that matters. */
  states(root: string): Map<string, string>;
  /** After the restart: index, links and listings agree with the files. */
  checkServed(session: Awaited<ReturnType<typeof connectStdio>>, wholly: 'before' | 'after'): Promise<void>;
}

async function measure(scenario: Scenario, root: string): Promise<number> {
  const session = await connectStdio(scenario.serveArgs(root));
  const started = performance.now();
  await scenario.run(session);
  const ms = performance.now() - started;
  await closeAndWait(session);
  return ms;
}

async function crashAt(
  scenario: Scenario,
  seedRoot: string,
  point: { hook?: string; afterMs?: number },
): Promise<{ root: string }> {
  const root = await tempDir('nk-journal-crash-');
  dirs.push(root);
  fs.cpSync(seedRoot, root, { recursive: true });
  const session = await connectStdio(
    scenario.serveArgs(root),
    point.hook !== undefined
      ? { NOTEKERNEL_TEST_DIE_AFTER_STEPS: point.hook, NODE_OPTIONS: `--require=${CRASH_PRELOAD}` }
      : {},
  );
  const pid = session.pid() as number;
  const exited = new Promise<void>((resolve) => {
    const poll = setInterval(() => {
      try {
        process.kill(pid, 0);
      } catch {
        clearInterval(poll);
        resolve();
      }
    }, 5);
  });
  const call = scenario.run(session).catch(() => undefined);
  if (point.afterMs !== undefined) {
    await new Promise((r) => setTimeout(r, point.afterMs));
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already done and gone is fine: the operation finished before the kill
    }
  }
  await Promise.race([exited, call.then(() => (point.afterMs !== undefined ? undefined : exited))]);
  if (point.afterMs === undefined) await exited;
  await closeAndWait(session);
  return { root };
}

export async function runScenario(name: string, scenario: Scenario, hookPoints: string[]): Promise<void> {
  const seedRoot = await tempDir(`nk-journal-seed-${name}-`);
  dirs.push(seedRoot);
  await scenario.seed(seedRoot);
  const before = scenario.states(seedRoot);
  const reference = await tempDir(`nk-journal-ref-${name}-`);
  dirs.push(reference);
  fs.cpSync(seedRoot, reference, { recursive: true });
  const ms = await measure(scenario, reference);
  const after = scenario.states(reference);
  expect([...after.values()].filter((v, i) => v !== [...before.values()][i]).length).toBeGreaterThan(0);

  const timerPoints = Array.from({ length: 20 - hookPoints.length }, (_, i) =>
    Math.round((ms * (i + 1)) / (20 - hookPoints.length + 1)),
  );
  const points = [...hookPoints.map((hook) => ({ hook })), ...timerPoints.map((afterMs) => ({ afterMs }))];
  const seen = { before: 0, after: 0, recovered: 0 };
  for (const point of points) {
    const { root } = await crashAt(scenario, seedRoot, point);
    const session = await connectStdio(scenario.serveArgs(root));
    // The first answer comes after the open, and the open after the recovery.
    await callTool(session.client, scenario.probe, {});
    const now = scenario.states(root);
    const label = JSON.stringify(point);
    expect(
      [...now.keys()].filter((k) => !before.has(k) && !after.has(k)),
      label,
    ).toEqual([]);
    let wholly: 'before' | 'after' | undefined;
    for (const key of new Set([...before.keys(), ...after.keys()])) {
      const state = now.get(key);
      const which = state === after.get(key) ? 'after' : state === before.get(key) ? 'before' : 'neither';
      expect(which, `${label} ${key}`).not.toBe('neither');
      if (before.get(key) === after.get(key)) continue;
      wholly ??= which as 'before' | 'after';
      expect(which, `${label} ${key}: one note is ${which}, another ${wholly}`).toBe(wholly);
    }
    // The recovery's own writes retire replaced versions under temp names and unlink them just
    // after (decision 010): none may be left, but some may still be in flight at the first answer.
    for (let waited = 0; tempFiles(root).length > 0 && waited < 3_000; waited += 50)
      await new Promise((r) => setTimeout(r, 50));
    expect(tempFiles(root), label).toEqual([]);
    // Link queries may answer from the link index as it stood while the start-up reconcile
    // catches up (decision 026): the answers must agree with the files within a few seconds.
    for (let tries = 0; ; tries++) {
      const failure = await scenario.checkServed(session, wholly ?? 'before').then(
        () => undefined,
        (err: Error) => err,
      );
      if (!failure) break;
      if (tries >= 30) throw new Error(`${label} (${wholly ?? 'before'}): ${failure.message}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const log = session.stderr();
    if (log.includes('journal: an operation interrupted by a crash')) seen.recovered++;
    seen[wholly ?? 'before']++;
    await closeAndWait(session);
    const doctor = await runCli(['doctor', '--json', ...scenario.serveArgs(root).slice(1)]);
    const journal = (
      JSON.parse(doctor.stdout) as { findings: Array<{ check: string; ok: boolean; detail: string }> }
    ).findings.find((f) => f.check === 'journal');
    expect(journal?.ok, `${label} ${journal?.detail}`).toBe(true);
  }
  // Each hook point comes after the plan is durable: those always finish, and say so.
  expect(seen.recovered, JSON.stringify(seen)).toBeGreaterThanOrEqual(hookPoints.length);
  expect(seen.after).toBeGreaterThanOrEqual(hookPoints.length);
}
