/**
 * How soon a served flint vault (spawned, MCP stdio) answers where its end-to-end tests check only
 * that it does (issue 29: their wall-clock bounds failed on a busy machine, not on slow code).
 * Each row beside `get_note` of a plain note in the same server:
 *
 * - get_note of a FIFO named *.md: skipped, never opened for reading (was: < 100 ms in
 *   test/e2e/containment-files.test.ts);
 * - get_note of a note whose frontmatter is a YAML alias bomb (was: < 1 s in containment-yaml);
 * - a note another program writes, until list_note_types counts it (was: < 1 s in
 *   flint-external-edits);
 * - a 20 MB tools/call refused by the message limit (was: < 1 s in mcp/message-limit);
 * - a plain SQL query while two runaway queries run (was: < 1 s in containment-sql).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { callTool, connectStdio } from '../support/mcp.js';
import { aliasBomb } from '../support/hostile.js';
import { fmt, percentile, sample, type BenchRow } from './stats.js';

const RUNAWAY = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) AS n FROM c';

export async function benchServedBounds(workDir: string): Promise<BenchRow[]> {
  const root = path.join(workDir, 'served-bounds-vault');
  await fs.rm(root, { recursive: true, force: true });
  await fs.mkdir(path.join(root, 'general'), { recursive: true });
  await fs.writeFile(path.join(root, 'general', 'ok.md'), '---\ntitle: Fine\n---\n\nok\n');
  await fs.writeFile(path.join(root, 'general', 'bomb.md'), `---\n${aliasBomb()}---\n\nThe body survives.\n`);
  execFileSync('mkfifo', [path.join(root, 'general', 'fifo.md')]);
  // Runaways end at 5 s here, not the default, so the row costs seconds.
  await fs.writeFile(
    path.join(root, 'notekernel.config.yaml'),
    'profile: flint\nplugins:\n  search:\n    sqlTimeoutMs: 5000\n',
  );
  const session = await connectStdio(['serve', '--vault', root]);
  try {
    const call = (name: string, args: Record<string, unknown> = {}) => callTool(session.client, name, args);
    await call('list_notes_by_type', { type: 'general' }); // the index is built
    const plain = await sample(20, () => call('get_note', { identifier: 'general/ok.md' }));
    const base = percentile(plain, 50);
    const baseline = `get_note of a plain note p50 ${fmt(base)}`;
    const row = (bench: string, ms: number, limitMs: number, ok: boolean): BenchRow => ({
      bench,
      value: fmt(ms),
      target: `≤ ${fmt(limitMs)}`,
      baseline,
      ratio: `${(ms / base).toFixed(1)}× baseline`,
      pass: ok && ms <= limitMs,
    });

    let fifoRefused = true;
    const fifo = await sample(5, async () => {
      fifoRefused &&= (await call('get_note', { identifier: 'general/fifo.md' })).isError;
    });
    let bombRead = true;
    const bomb = await sample(5, async () => {
      bombRead &&= JSON.stringify((await call('get_note', { identifier: 'general/bomb.md' })).body).includes(
        'The body survives.',
      );
    });

    const counted = async () =>
      ((await call('list_note_types')).body as Array<{ name: string; noteCount: number }>).find(
        (t) => t.name === 'general',
      )?.noteCount ?? 0;
    const before = await counted();
    let started = performance.now();
    await fs.writeFile(
      path.join(root, 'general', 'outside.md'),
      '---\ntitle: From outside\n---\n\nwritten by an editor\n',
    );
    while ((await counted()) === before && performance.now() - started < 15_000)
      await new Promise((resolve) => setTimeout(resolve, 10));
    const seenMs = performance.now() - started;

    started = performance.now();
    const refusal = await session.client
      .callTool({ name: 'create_note', arguments: { title: 'Too big', content: 'x'.repeat(20 * 1024 * 1024) } })
      .then(
        () => undefined,
        (err: unknown) => err as { code?: number },
      );
    const refusedMs = performance.now() - started;

    const runaways = [RUNAWAY, RUNAWAY].map((query) => call('search_notes_sql', { query }).catch(() => undefined));
    // Both hold their processes before the plain query is timed (as the end-to-end test waits).
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    let answered = true;
    const beside = await sample(3, async () => {
      answered &&= !(await call('search_notes_sql', { query: 'SELECT count(*) AS n FROM notes' })).isError;
    });
    await Promise.all(runaways);

    return [
      row('served: get_note of a FIFO named *.md (p50)', percentile(fifo, 50), 100, fifoRefused),
      row('served: get_note of an alias-bomb note (p50)', percentile(bomb, 50), 1_000, bombRead),
      row('served: a note written by another program, counted after', seenMs, 1_000, seenMs < 15_000),
      row('served: a 20 MB tools/call refused by the message limit', refusedMs, 1_000, refusal?.code === -32600),
      row('served: SQL query beside two runaway queries (p50)', percentile(beside, 50), 1_000, answered),
    ];
  } finally {
    await session.close();
    await fs.rm(root, { recursive: true, force: true });
  }
}
