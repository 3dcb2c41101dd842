/**
 * seed 000's multi-vault system end to end: vault tools over a real MCP client, vault_id
 * routing without switching, the registry in a temp config folder, and the vault CLI.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, connectStdio, type StdioSession } from '../support/mcp.js';
import { runCli } from '../support/run-cli.js';
import { removeDir, tempDir } from '../support/temp.js';

let base: string;
let configDir: string;
let session: StdioSession;

beforeAll(async () => {
  base = await tempDir('nk-e2e-vaults-');
  configDir = path.join(base, 'config');
  await fs.mkdir(path.join(base, 'home'));
  session = await connectStdio(['serve', '--profile', 'flint', '--vault', path.join(base, 'home')], {
    NOTEKERNEL_CONFIG_DIR: configDir,
  });
});

afterAll(async () => {
  await session?.close();
  await removeDir(base);
});

describe('vault tools over MCP', () => {
  it('creates vaults with the default types and lists them', async () => {
    const work = await callTool(session.client, 'create_vault', {
      vault_id: 'work',
      name: 'Work Notes',
      path: path.join(base, 'work'),
      description: 'Projects',
    });
    expect(work.isError).toBe(false);
    expect(work.body).toMatchObject({
      success: true,
      vault: { id: 'work', name: 'Work Notes', description: 'Projects', is_current: true },
    });
    expect(await fs.readFile(path.join(base, 'work', 'daily', '_description.md'), 'utf8')).toContain(
      '## Agent Instructions',
    );

    await callTool(session.client, 'create_vault', {
      vault_id: 'personal',
      name: 'Personal',
      path: path.join(base, 'personal'),
    });
    const listed = await callTool(session.client, 'list_vaults');
    expect((listed.body as { vaults: Array<{ id: string }> }).vaults.map((v) => v.id).sort()).toEqual([
      'personal',
      'work',
    ]);
    expect(listed.body).toMatchObject({ current_vault: 'work' });
  });

  it('refuses a duplicate id and an unsafe one, naming them', async () => {
    const dup = await callTool(session.client, 'create_vault', {
      vault_id: 'work',
      name: 'Again',
      path: path.join(base, 'again'),
    });
    expect(dup.body).toMatchObject({ error: 'conflict' });
    const bad = await callTool(session.client, 'create_vault', {
      vault_id: '../x',
      name: 'Bad',
      path: path.join(base, 'bad'),
    });
    expect(bad.body).toMatchObject({ error: 'validation_failed' });
  });

  it('serves a call from another vault by vault_id, without switching', async () => {
    const created = await callTool(session.client, 'create_note', {
      type: 'general',
      title: 'Routed',
      content: 'to personal',
      vault_id: 'personal',
    });
    expect(created.isError).toBe(false);
    await fs.access(path.join(base, 'personal', 'general', 'routed.md'));
    await expect(fs.access(path.join(base, 'home', 'general', 'routed.md'))).rejects.toThrow();

    const got = await callTool(session.client, 'get_note', { identifier: 'general/routed.md', vault_id: 'personal' });
    expect(got.body).toMatchObject({ title: 'Routed', content: 'to personal' });
    const current = await callTool(session.client, 'get_current_vault');
    expect(current.body).toMatchObject({ id: 'home', registered: false });
  });

  it('lists the available vault ids for an unknown vault_id', async () => {
    const answer = await callTool(session.client, 'get_note', { identifier: 'general/x.md', vault_id: 'nope' });
    expect(answer.isError).toBe(true);
    expect(answer.body).toMatchObject({ error: 'not_found', available: expect.arrayContaining(['work', 'personal']) });
    expect((answer.body as { message: string }).message).toMatch(/Available vaults: .*work/);
  });

  it('switches, updates and removes vaults; removal keeps the files', async () => {
    const switched = await callTool(session.client, 'switch_vault', { vault_id: 'personal' });
    expect(switched.body).toMatchObject({ success: true, vault: { id: 'personal' } });
    const current = await callTool(session.client, 'get_current_vault');
    expect(current.body).toMatchObject({ id: 'personal', name: 'Personal', registered: true, note_count: 2 }); // welcome + routed

    const updated = await callTool(session.client, 'update_vault', { vault_id: 'personal', name: 'Private' });
    expect(updated.body).toMatchObject({ vault: { id: 'personal', name: 'Private' } });

    const removed = await callTool(session.client, 'remove_vault', { vault_id: 'work' });
    expect(removed.body).toMatchObject({ success: true, removed: { id: 'work' } });
    await fs.access(path.join(base, 'work', 'daily', '_description.md'));
    const listed = await callTool(session.client, 'list_vaults');
    expect((listed.body as { vaults: Array<{ id: string }> }).vaults.map((v) => v.id)).toEqual(['personal']);
  });

  it('reads the vault resources: flint-note://vaults is a JSON list, as seed 000 says, marking the current vault', async () => {
    const vaults = await session.client.readResource({ uri: 'flint-note://vaults' });
    const text = (vaults.contents[0] as { text: string }).text;
    const list = JSON.parse(text) as Array<{ id: string; is_current: boolean }>;
    expect(list.filter((v) => v.is_current).map((v) => v.id)).toEqual(['personal']);
  });
});

describe('vault CLI', () => {
  it('create, list, switch, current, update, remove on the registry', async () => {
    const env = { NOTEKERNEL_CONFIG_DIR: path.join(base, 'cli-config') };
    const created = await runCli(
      ['create', 'research', 'Research', path.join(base, 'research'), '--description', 'Papers', '--json'],
      { env },
    );
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ success: true, vault: { id: 'research' } });
    await fs.access(path.join(base, 'research', 'reading', '_description.md'));

    expect((await runCli(['init', path.join(base, 'side'), '--id', 'side', '--name', 'Side'], { env })).code).toBe(0);
    const listed = JSON.parse((await runCli(['list', '--json'], { env })).stdout) as {
      vaults: Array<{ id: string }>;
      current_vault: string;
    };
    expect(listed.vaults.map((v) => v.id).sort()).toEqual(['research', 'side']);
    expect(listed.current_vault).toBe('research');

    expect((await runCli(['switch', 'side'], { env })).code).toBe(0);
    expect(JSON.parse((await runCli(['current', '--json'], { env })).stdout)).toMatchObject({
      id: 'side',
      name: 'Side',
    });
    expect(
      JSON.parse((await runCli(['update', 'side', '--name', 'Side Projects', '--json'], { env })).stdout),
    ).toMatchObject({ vault: { name: 'Side Projects' } });

    // With no --vault, tools run in the current vault; vault_id reaches the others.
    const call = await runCli(
      ['call', 'create_note', JSON.stringify({ title: 'Via CLI', content: 'x', vault_id: 'research' })],
      { env },
    );
    expect(call.code).toBe(0);
    await fs.access(path.join(base, 'research', 'general', 'via-cli.md'));

    expect((await runCli(['remove', 'research'], { env })).code).toBe(0);
    await fs.access(path.join(base, 'research', 'general', 'via-cli.md'));
    const missing = await runCli(['switch', 'research'], { env });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/Vault 'research' not found/);
  });
});
