/**
 * The CLI as a user runs it: init, call, tools, index, serve's shutdown paths and exit codes.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI } from '../support/cli.js';
import { runCli } from '../support/run-cli.js';
import { removeDir, tempDir } from '../support/temp.js';

let root: string;

beforeAll(async () => {
  root = await tempDir('nk-e2e-cli-');
});
afterAll(async () => {
  await removeDir(root);
});

describe('notekernel CLI', () => {
  it('init creates the default types, their descriptions and a welcome note', async () => {
    const vault = path.join(root, 'vault');
    const run = await runCli(['init', vault, '--json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      types: ['daily', 'general', 'goals', 'projects', 'reading', 'todos'],
    });
    for (const type of ['daily', 'reading', 'todos', 'projects', 'goals', 'general']) {
      const text = await fs.readFile(path.join(vault, type, '_description.md'), 'utf8');
      expect(text).toMatch(/## Purpose/);
      expect(text).toMatch(/## Agent Instructions\n- /);
      expect(text).toMatch(/## Metadata Schema/);
    }
    expect(await fs.readFile(path.join(vault, 'reading', '_description.md'), 'utf8')).toContain(
      '- rating: Personal rating (required, number, min: 1, max: 5)',
    );
    expect(await fs.readFile(path.join(vault, 'general', 'welcome-to-your-vault.md'), 'utf8')).toMatch(
      /^---\ntitle: Welcome to your vault/,
    );
    const again = await runCli(['init', vault]);
    expect(again.code).toBe(0); // idempotent
  });

  it('call prints the tool result as JSON', async () => {
    const vault = path.join(root, 'vault');
    const run = await runCli(['call', 'list_note_types', '{}', '--vault', vault, '--json']);
    expect(run.code).toBe(0);
    const types = JSON.parse(run.stdout) as Array<{ name: string; noteCount: number }>;
    expect(types.find((t) => t.name === 'general')?.noteCount).toBe(1);
  });

  it('call sees notes added, changed and removed outside while no server ran (files digest)', async () => {
    const vault = path.join(root, 'outside');
    expect((await runCli(['init', vault])).code).toBe(0);
    const count = async (type: string) => {
      const run = await runCli(['call', 'list_notes_by_type', JSON.stringify({ type }), '--vault', vault, '--json']);
      expect(run.code).toBe(0);
      return (JSON.parse(run.stdout) as unknown[]).length;
    };
    expect(await count('projects')).toBe(0);
    await fs.writeFile(path.join(vault, 'projects', 'added.md'), '---\ntitle: Added outside\n---\n\nfirst words\n');
    expect(await count('projects')).toBe(1);
    // Same size, new mtime: only the digest of (size, mtime) tells this edit apart.
    await fs.writeFile(path.join(vault, 'projects', 'added.md'), '---\ntitle: Added outside\n---\n\nlater words\n');
    const later = new Date(Date.now() + 60_000);
    await fs.utimes(path.join(vault, 'projects', 'added.md'), later, later);
    const search = await runCli(['call', 'search_notes', '{"query":"later"}', '--vault', vault]);
    expect(search.code).toBe(0);
    expect(search.stdout).toContain('projects/added.md');
    await fs.rm(path.join(vault, 'projects', 'added.md'));
    expect(await count('projects')).toBe(0);
  });

  it('call exits non-zero with the error code on a tool error', async () => {
    const vault = path.join(root, 'vault');
    const run = await runCli(['call', 'get_note', '{"identifier":"general/missing.md"}', '--vault', vault, '--json']);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ error: 'not_found' });
    expect(run.stderr).toMatch(/not_found/);
    const badJson = await runCli(['call', 'get_note', '{nope', '--vault', vault]);
    expect(badJson.code).toBe(2);
  });

  it('call on a vault path that does not exist says so, names init, and exits 2 (serve creates it)', async () => {
    const run = await runCli(['call', 'list_note_types', '--profile', 'flint', '--vault', path.join(root, 'nowhere')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/Vault path does not exist/);
    expect(run.stderr).toContain('notekernel init');
  });

  it('a bad config file fails at start-up naming file, key and reason', async () => {
    const config = path.join(root, 'bad.yaml');
    await fs.writeFile(config, 'profile: flint\nplugins:\n  no-such-plugin: true\n');
    const run = await runCli(['tools', '--config', config, '--vault', path.join(root, 'vault')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${config}: plugins.no-such-plugin: unknown plugin "no-such-plugin"`);
  });

  it('index reports what it re-read, with no progress bar when stderr is not a terminal', async () => {
    const vault = path.join(root, 'indexed');
    await fs.mkdir(path.join(vault, 'general'), { recursive: true });
    for (let i = 0; i < 30; i++)
      await fs.writeFile(path.join(vault, 'general', `n${i}.md`), `---\ntitle: N${i}\n---\n\nbody ${i}\n`);
    const first = await runCli(['index', '--vault', vault, '--json']);
    expect(first.code).toBe(0);
    expect(first.stderr).not.toMatch(/indexing notes/);
    expect(JSON.parse(first.stdout)).toMatchObject({ scanned: 30, indexed: 30, removed: 0 });
    await fs.writeFile(path.join(vault, 'general', 'n3.md'), '---\ntitle: N3 changed\n---\n\nnew body\n');
    const second = await runCli(['index', '--vault', vault, '--json']);
    // One refresh per run (the opening one, decision 013): it re-reads the one changed file.
    expect(JSON.parse(second.stdout)).toMatchObject({ scanned: 30, indexed: 1, removed: 0 });
    const third = await runCli(['index', '--vault', vault, '--json']);
    expect(JSON.parse(third.stdout)).toMatchObject({ scanned: 30, indexed: 0, removed: 0 });
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('serve shuts down cleanly on %s', async (signal) => {
    const child = spawn(process.execPath, [CLI, 'serve', '--vault', path.join(root, 'vault')], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    await waitFor(() => stderr.includes('serving MCP over stdio'));
    child.kill(signal);
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
    expect(stderr).toMatch(/shutting down/);
  });

  it('serve shuts down cleanly when stdin ends', async () => {
    const child = spawn(process.execPath, [CLI, 'serve', '--vault', path.join(root, 'vault')], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    await waitFor(() => stderr.includes('serving MCP over stdio'));
    child.stdin.end();
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 15_000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
}
