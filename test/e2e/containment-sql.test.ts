/**
 * Issue 19, item 5, end to end over stdio: search_notes_sql's resources are bounded. A sort that
 * would spill gigabytes fails with "out of memory" inside its capped sandbox heap (temp storage
 * is memory, never files outside the vault), and two runaway queries do not make a normal query
 * wait: it is answered while they still run (their limit is 20 s; its time is logged).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateVault } from '../support/generate-vault.js';
import { callTool, connectStdio, type StdioSession } from '../support/mcp.js';
import { removeDir, tempDir } from '../support/temp.js';

const RUNAWAY = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) AS n FROM c';
// 20 million rows of 1 KB kept by the sorter (the OFFSET defeats the top-N shortcut): ~20 GB of
// sort space, which spilled to the system temp folder before (760 MB in 6 s, measured).
const SPILL =
  "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 20000000) SELECT x FROM c ORDER BY printf('%.1000d', x) DESC LIMIT 1 OFFSET 19999990";

let root: string;
let session: StdioSession;

beforeAll(async () => {
  root = await tempDir('nk-e2e-sql-bounds-');
  generateVault(root, 200);
  fs.writeFileSync(
    path.join(root, 'notekernel.config.yaml'),
    'profile: flint\nplugins:\n  search:\n    sqlTimeoutMs: 20000\n',
  );
  session = await connectStdio(['serve', '--vault', root]);
  await callTool(session.client, 'search_notes', { query: 'plan' });
}, 60_000);

afterAll(async () => {
  await session?.close();
  await removeDir(root);
});

describe('SQL sandbox resources', () => {
  it('a sort that would spill gigabytes stops at the heap cap with an error, well before its time limit', async () => {
    const started = performance.now();
    const answer = await callTool(session.client, 'search_notes_sql', { query: SPILL });
    const ms = performance.now() - started;
    console.info(`spill query stopped after ${Math.round(ms)} ms: ${JSON.stringify(answer.body).slice(0, 160)}`);
    expect(answer.isError).toBe(true);
    expect(JSON.stringify(answer.body)).toMatch(/out of memory|memory/i);
    expect(ms).toBeLessThan(15_000);
  });

  it('a normal query is answered while two runaways run', async () => {
    let runawaysEnded = false;
    const runaways = [RUNAWAY, RUNAWAY].map((query) =>
      callTool(session.client, 'search_notes_sql', { query }).catch((err: unknown) => ({
        isError: true,
        body: { error: String(err) },
      })),
    );
    void Promise.race(runaways).then(() => (runawaysEnded = true));
    // Both hold their processes; meanwhile a spare is warmed (its start takes ~1 s on a loaded machine).
    await new Promise((r) => setTimeout(r, 2000));
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      const answer = await callTool(session.client, 'search_notes_sql', { query: 'SELECT count(*) AS n FROM notes' });
      const ms = performance.now() - started;
      console.info(`normal query beside two runaways: ${Math.round(ms)} ms`);
      expect(answer.body).toMatchObject({ results: [{ n: 200 }] });
      expect(runawaysEnded).toBe(false); // answered beside them, not after their time limit
    }
    const stopped = await Promise.all(runaways);
    for (const answer of stopped) expect((answer.body as { error?: string }).error).toBe('timeout');
  }, 60_000);
});
