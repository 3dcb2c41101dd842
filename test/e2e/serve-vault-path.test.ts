/**
 * `serve --vault` (and `init`) on a folder that cannot be made, through the built CLI: a path
 * under a file, and one on /proc (where Node's recursive mkdir loops forever), each end at once
 * with exit 2 and one line naming the path and the reason — no stack trace, no hang. A folder
 * that can be made still is.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/run-cli.js';
import { removeDir, tempDir } from '../support/temp.js';

let sandbox: string;
let env: Record<string, string>;

beforeAll(async () => {
  sandbox = await tempDir('nk-e2e-serve-path-');
  fs.writeFileSync(path.join(sandbox, 'a-file.md'), 'not a folder\n');
  env = { NOTEKERNEL_CONFIG_DIR: path.join(sandbox, 'registry') };
});
afterAll(async () => {
  await removeDir(sandbox);
});

/** The run's stderr as lines, with the time it took. */
async function serve(args: string[]): Promise<{ code: number | null; lines: string[]; ms: number }> {
  const started = Date.now();
  const run = await runCli(args, { env, cwd: sandbox });
  return { code: run.code, lines: run.stderr.split('\n').filter(Boolean), ms: Date.now() - started };
}

describe('serve --vault on a folder that cannot be made', () => {
  it('under a file: exit 2, one line naming the path and the file in the way', async () => {
    const target = path.join(sandbox, 'a-file.md', 'vault');
    const run = await serve(['serve', '--profile', 'obsidian', '--vault', target]);
    expect(run.code).toBe(2);
    expect(run.lines).toHaveLength(1);
    expect(run.lines[0]).toContain(target);
    expect(run.lines[0]).toContain(`${path.join(sandbox, 'a-file.md')} is a file, not a folder`);
    expect(run.lines[0]).not.toMatch(/internal|ENOTDIR: not a directory, mkdir|\n\s+at /);
  }, 30_000);

  it.runIf(fs.existsSync('/proc/self'))(
    'on /proc: exit 2 at once, one line naming the path and why',
    async () => {
      const run = await serve(['serve', '--profile', 'flint', '--vault', '/proc/x/notes']);
      expect(run.code).toBe(2);
      expect(run.ms).toBeLessThan(20_000);
      expect(run.lines).toHaveLength(1);
      expect(run.lines[0]).toContain('/proc/x/notes');
      expect(run.lines[0]).toMatch(/file system at \/proc does not take new folders/);
    },
    30_000,
  );

  it('init says the same, and a folder that can be made still is', async () => {
    const run = await serve(['init', path.join(sandbox, 'a-file.md', 'sub')]);
    expect(run.code).toBe(2);
    expect(run.lines).toHaveLength(1);
    expect(run.lines[0]).toContain('is a file, not a folder');
    const fresh = path.join(sandbox, 'new', 'deep', 'vault');
    const made = await runCli(
      ['call', 'search_by_folder', '{"folder": ""}', '--profile', 'obsidian', '--vault', fresh],
      { env, cwd: sandbox },
    );
    expect(made.code).not.toBe(0); // call opens, it does not create
    const init = await runCli(['init', fresh, '--profile', 'obsidian'], { env, cwd: sandbox });
    expect(init.code, init.stderr).toBe(0);
    expect(fs.statSync(fresh).isDirectory()).toBe(true);
    const served = path.join(sandbox, 'served', 'vault');
    const serveRun = await serve(['serve', '--profile', 'obsidian', '--vault', served]);
    expect(serveRun.code).toBe(0);
    expect(fs.statSync(served).isDirectory()).toBe(true);
  }, 60_000);
});
