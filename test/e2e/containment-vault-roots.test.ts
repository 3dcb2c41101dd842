/**
 * Issue 19, item 8, end to end over stdio: an agent cannot open an arbitrary folder as a vault.
 * create_vault and switch_vault accept only folders below the allowed roots (by default the
 * folder holding the served vault), never hidden or system folders; the refusal names the roots.
 * The CLI (a person) keeps its freedom.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, connectStdio, type StdioSession } from '../support/mcp.js';
import { runCli } from '../support/run-cli.js';
import { removeDir, tempDir } from '../support/temp.js';

let sandbox: string;
let parent: string;
let env: Record<string, string>;
let session: StdioSession;

beforeAll(async () => {
  sandbox = await tempDir('nk-e2e-roots-');
  parent = path.join(sandbox, 'vaults');
  await fs.mkdir(path.join(parent, 'home'), { recursive: true });
  await fs.mkdir(path.join(sandbox, 'outside'));
  await fs.writeFile(path.join(sandbox, 'outside', 'private.md'), 'PRIVATE\n');
  await fs.symlink(path.join(sandbox, 'outside'), path.join(parent, 'link-out'));
  env = { NOTEKERNEL_CONFIG_DIR: path.join(sandbox, 'config') };
  session = await connectStdio(['serve', '--profile', 'flint', '--vault', path.join(parent, 'home')], env);
});

afterAll(async () => {
  await session?.close();
  await removeDir(sandbox);
});

describe('create_vault over MCP', () => {
  it.each([
    ['an absolute folder outside', () => path.join(sandbox, 'outside')],
    ['a relative escape', () => '../outside'],
    ['the parent itself', () => parent],
    ['a system folder', () => '/etc/nk-test'],
    ['a hidden folder', () => path.join(parent, 'home', '.flint-note')],
    ['a .git folder', () => path.join(parent, '.git', 'x')],
    ['a symlink out', () => path.join(parent, 'link-out')],
    ['a NUL byte', () => `${parent}/a\u0000b`],
  ])('refuses %s, naming the allowed roots, and creates nothing', async (_label, target) => {
    const answer = await callTool(session.client, 'create_vault', { vault_id: 'x', name: 'X', path: target() });
    expect(answer.isError).toBe(true);
    const text = JSON.stringify(answer.body);
    expect(text).toContain('path_outside_vault');
    expect(text).toContain(parent);
    await expect(fs.access(path.join(sandbox, 'outside', '.flint-note'))).rejects.toThrow();
  });

  it('creates a sibling of the served vault, by absolute or relative path', async () => {
    const abs = await callTool(session.client, 'create_vault', {
      vault_id: 'work',
      name: 'Work',
      path: path.join(parent, 'work'),
    });
    expect(abs.isError).toBe(false);
    const rel = await callTool(session.client, 'create_vault', { vault_id: 'play', name: 'Play', path: 'play' });
    expect(rel.isError).toBe(false);
    await fs.access(path.join(parent, 'play'));
  });

  it('says so in the tool description', async () => {
    const { tools } = await session.client.listTools();
    expect(tools.find((t) => t.name === 'create_vault')?.description).toMatch(/allowed root/);
  });
});

describe('switch_vault over MCP', () => {
  it('refuses a vault a person registered outside the roots; the CLI still may', async () => {
    const cli = await runCli(['create', 'far', 'Far', path.join(sandbox, 'outside')], { env });
    expect(cli.code, cli.stderr).toBe(0);
    const answer = await callTool(session.client, 'switch_vault', { vault_id: 'far' });
    expect(answer.isError).toBe(true);
    expect(JSON.stringify(answer.body)).toContain(parent);
    expect((await callTool(session.client, 'switch_vault', { vault_id: 'work' })).isError).toBe(false);
  });
});
