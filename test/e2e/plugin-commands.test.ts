/**
 * Plugin CLI commands through the binary, as the issue spells them: `notekernel migrate
 * agent-memory-v2 --root-dir PATH [--dry-run]` finds the profile that has the command.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/run-cli.js';
import { removeDir, tempDir } from '../support/temp.js';

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map(removeDir));
});

const V1 =
  '<!-- agent-memory:meta {"id":"id__Ab3xYz","title":"Igor — developer","tags":["area__work"],"status":"active","used":3} -->\n\nworks on [[id__Kf9mNp|the console]].\n';
const V2 = '# Igor — developer\n\n#area__work\n\nworks on [[id__Kf9mNp|the console]].\n';

describe('plugin commands from the shell', () => {
  it('migrate agent-memory-v2: dry run writes nothing, a run converts, a second run skips', async () => {
    const root = await tempDir('nk-migrate-');
    dirs.push(root);
    await fs.writeFile(path.join(root, '_top-of-mind igor id__Ab3xYz.md'), V1);

    const dry = await runCli(['migrate', 'agent-memory-v2', '--root-dir', root, '--dry-run']);
    expect(dry.code, dry.stderr).toBe(0);
    expect(await fs.readdir(root)).toContain('_top-of-mind igor id__Ab3xYz.md');

    const run = await runCli(['migrate', 'agent-memory-v2', '--root-dir', root]);
    expect(run.code, run.stderr).toBe(0);
    expect(await fs.readFile(path.join(root, 'igor-developer id__Ab3xYz.md'), 'utf8')).toBe(V2);

    const again = await runCli(['migrate', 'agent-memory-v2', '--root-dir', root, '--json']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ migrated: [] });
  });

  it('parses a plugin command as every other command: bad usage exits 2 before anything opens, --help lists its options', async () => {
    const root = await tempDir('nk-migrate-usage-');
    dirs.push(root);
    await fs.writeFile(path.join(root, '_top-of-mind igor id__Ab3xYz.md'), V1);
    const noStep = await runCli(['migrate', '--root-dir', root]);
    expect(noStep.code).toBe(2);
    expect(noStep.stderr).toMatch(/missing required argument 'step'/);
    const unknown = await runCli(['migrate', 'agent-memory-v2', '--root-dir', root, '--bogus']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown option '--bogus'/);
    const noValue = await runCli(['links-repair', '--note']);
    expect(noValue.code).toBe(2);
    expect(noValue.stderr).toMatch(/option '--note <id>' argument missing/);
    // Nothing was converted by the refused calls.
    expect(await fs.readdir(root)).toEqual(['_top-of-mind igor id__Ab3xYz.md']);
    const help = await runCli(['migrate', '--help']);
    expect(help.code).toBe(0);
    for (const text of ['<step>', '--root-dir <path>', '--dry-run', '--json']) expect(help.stdout).toContain(text);
  });

  it('refuses an unknown command, points at --help (which lists the plugin commands), and exits 2', async () => {
    const run = await runCli(['frobnicate']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/unknown command 'frobnicate'/);
    expect(run.stderr).toContain('notekernel --help');
  });
});

describe('links-repair from the shell', () => {
  it('runs in the flint profile and reports as JSON or text', async () => {
    const root = await tempDir('nk-repair-');
    dirs.push(root);
    expect((await runCli(['init', root])).code).toBe(0);
    const run = await runCli(['links-repair', '--vault', root, '--dry-run']);
    expect(run.code, run.stderr).toBe(0);
    const json = await runCli(['links-repair', '--vault', root, '--dry-run', '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ dry_run: true, links_updated: 0 });
  });
});
