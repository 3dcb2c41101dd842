/**
 * Issue 31, flint (seed 000) and flint-note's own integration tests: vaults, resources and the
 * CLI, end to end over a real SDK client on the built `notekernel serve` (and the built CLI):
 * flint-note's resource templates, `--workspace`, an empty folder served gets the default
 * types, flint-note's own vault registry is read, and `mcp_server.auto_switch_vault`.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, connectStdio, type StdioSession } from '../support/mcp.js';
import { runCli } from '../support/run-cli.js';
import { removeDir, tempDir } from '../support/temp.js';

let base: string;
let env: Record<string, string>;
let session: StdioSession;
const ok = async <T>(s: StdioSession, name: string, args: Record<string, unknown> = {}): Promise<T> => {
  const answer = await callTool(s.client, name, args);
  if (answer.isError) throw new Error(`${name}: ${JSON.stringify(answer.body)}`);
  return answer.body as T;
};
const read = async <T>(s: StdioSession, uri: string): Promise<T> => {
  const { contents } = await s.client.readResource({ uri });
  expect(contents[0]).toMatchObject({ uri, mimeType: 'application/json' });
  return JSON.parse(String((contents[0] as { text: string }).text)) as T;
};

beforeAll(async () => {
  base = await tempDir('nk-e2e-dropin-vaults-');
  env = { NOTEKERNEL_CONFIG_DIR: path.join(base, 'config'), XDG_CONFIG_HOME: path.join(base, 'xdg') };
  await fs.mkdir(path.join(base, 'home'));
  session = await connectStdio(['serve', '--profile', 'flint', '--vault', path.join(base, 'home')], env);
  // flint-note's resources-integration test data set, as its test creates it.
  await ok(session, 'create_note_type', { type_name: 'project', description: 'Project tracking notes' });
  await ok(session, 'create_note', {
    type: 'general',
    title: 'Test Note 1',
    content: 'This is a test note with [[project/sample-project]] link.',
    metadata: { tags: ['test', 'important'], priority: 'high' },
  });
  await ok(session, 'create_note', {
    type: 'general',
    title: 'Test Note 2',
    content: 'Another test note without links.',
    metadata: { tags: ['test'], priority: 'low' },
  });
  await ok(session, 'create_note', {
    type: 'project',
    title: 'Sample Project',
    content: 'This is a sample project note.\n\n## Status\nIn progress',
    metadata: { tags: ['project', 'important'], status: 'active' },
  });
  await ok(session, 'create_note', {
    type: 'project',
    title: 'Another Project',
    content: 'Different project with links to [[general/test-note-1]].',
    metadata: { tags: ['project'], status: 'planning' },
  });
});
afterAll(async () => {
  await session?.close();
  await removeDir(base);
});

describe('resource templates flint-note serves (its docs/MCP_RESOURCES.md)', () => {
  const TEMPLATES = [
    'flint-note://note/{type}/{filename}',
    'flint-note://note/{vault_id}/{type}/{filename}',
    'flint-note://notes/tagged/{tag}',
    'flint-note://notes/tagged/{vault_id}/{tag}',
    'flint-note://notes/{type}',
    'flint-note://notes/{vault_id}/{type}',
    'flint-note://links/incoming/{type}/{filename}',
    'flint-note://links/incoming/{vault_id}/{type}/{filename}',
  ];

  it('lists all eight in resources/templates/list, and none of them as a fixed resource', async () => {
    const { resourceTemplates } = await session.client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate)).toEqual(TEMPLATES);
    for (const t of resourceTemplates)
      expect(t).toMatchObject({
        mimeType: 'application/json',
        name: expect.any(String),
        description: expect.any(String),
      });
    const { resources } = await session.client.listResources();
    expect(resources.map((r) => r.uri).filter((uri) => uri.includes('{'))).toEqual([]);
  });

  it('flint-note://note/general/test-note-1 reads the note (flint-note test "should read individual note resource"), .md optional', async () => {
    const note = await read<{
      id: string;
      type: string;
      title: string;
      filename: string;
      content: string;
      content_hash: string;
      metadata: { tags: string[] };
    }>(session, 'flint-note://note/general/test-note-1');
    expect(note.content).toContain('This is a test note');
    expect(note.metadata.tags).toEqual(expect.arrayContaining(['test', 'important']));
    expect(note).toMatchObject({
      id: 'general/test-note-1.md',
      type: 'general',
      title: 'Test Note 1',
      filename: 'test-note-1.md',
    });
    expect(note.content_hash).toMatch(/^sha256:/);
    expect(await read<{ id: string }>(session, 'flint-note://note/general/test-note-1.md')).toMatchObject({
      id: note.id,
    });
  });

  it("flint-note://notes/general lists the type's notes; flint-note://notes/tagged/important the tagged ones", async () => {
    const general = await read<Array<{ id: string; type: string; title: string; filename: string }>>(
      session,
      'flint-note://notes/general',
    );
    expect(general.map((n) => n.id).sort()).toEqual(['general/test-note-1.md', 'general/test-note-2.md']);
    for (const n of general) expect(n).toMatchObject({ type: 'general', filename: expect.stringMatching(/\.md$/) });
    const important = await read<Array<{ id: string; tags: string[] }>>(session, 'flint-note://notes/tagged/important');
    expect(important.map((n) => n.id).sort()).toEqual(['general/test-note-1.md', 'project/sample-project.md']);
  });

  it('flint-note://links/incoming/project/sample-project lists the notes linking to it', async () => {
    const incoming = await read<Array<{ source_note_id: string; target_note_id: string }>>(
      session,
      'flint-note://links/incoming/project/sample-project',
    );
    expect(incoming.map((l) => l.source_note_id)).toEqual(['general/test-note-1.md']);
    expect(incoming[0]?.target_note_id).toBe('project/sample-project.md');
  });

  it('the {vault_id} forms read another registered vault, without switching to it', async () => {
    await ok(session, 'create_vault', { vault_id: 'research', name: 'Research', path: path.join(base, 'research') });
    await ok(session, 'create_note', {
      vault_id: 'research',
      type: 'general',
      title: 'Paper',
      content: 'See [[general/conclusions]]',
      metadata: { tags: ['urgent'] },
    });
    await ok(session, 'create_note', { vault_id: 'research', type: 'general', title: 'Conclusions', content: 'x' });
    expect(await read<{ title: string }>(session, 'flint-note://note/research/general/paper')).toMatchObject({
      title: 'Paper',
    });
    expect(
      (await read<Array<{ id: string }>>(session, 'flint-note://notes/research/general')).map((n) => n.id),
    ).toEqual(expect.arrayContaining(['general/paper.md', 'general/conclusions.md']));
    expect(
      (await read<Array<{ id: string }>>(session, 'flint-note://notes/tagged/research/urgent')).map((n) => n.id),
    ).toEqual(['general/paper.md']);
    expect(
      (
        await read<Array<{ source_note_id: string }>>(
          session,
          'flint-note://links/incoming/research/general/conclusions',
        )
      ).map((l) => l.source_note_id),
    ).toEqual(['general/paper.md']);
    expect(await ok(session, 'get_current_vault')).toMatchObject({ path: path.join(base, 'home') });
  });

  it('a note, type or vault that does not exist is a resource-not-found error naming it', async () => {
    await expect(session.client.readResource({ uri: 'flint-note://note/general/no-such-note' })).rejects.toThrow(
      /no-such-note/,
    );
    await expect(session.client.readResource({ uri: 'flint-note://notes/recipes' })).rejects.toThrow(
      /Note type 'recipes' does not exist/,
    );
    await expect(session.client.readResource({ uri: 'flint-note://note/nowhere/general/x' })).rejects.toThrow(
      /nowhere/,
    );
  });
});

describe('answer shapes', () => {
  it("list_note_types keeps flint-note's own row keys (the seed gives none); flint-note://vaults is a JSON list", async () => {
    const types = await ok<Array<Record<string, unknown>>>(session, 'list_note_types');
    expect(Object.keys(types[0] ?? {}).sort()).toEqual([
      'agentInstructions',
      'hasDescription',
      'lastModified',
      'name',
      'noteCount',
      'path',
      'purpose',
    ]);
    const vaults = await read<Array<{ id: string }>>(session, 'flint-note://vaults');
    expect(vaults.map((v) => v.id)).toContain('research');
  });
});

describe('moving from flint-note', () => {
  it("serve --workspace <dir> serves that folder (flint-note's flag), and an empty folder gets the default note types but no sample note", async () => {
    const folder = path.join(base, 'workspace');
    await fs.mkdir(folder);
    const s = await connectStdio(['serve', '--profile', 'flint', '--workspace', folder], env);
    try {
      expect(await ok(s, 'get_current_vault')).toMatchObject({ path: folder, note_count: 0 });
      const types = await ok<Array<{ name: string; hasDescription: boolean }>>(s, 'list_note_types');
      expect(types.map((t) => t.name)).toEqual(['daily', 'general', 'goals', 'projects', 'reading', 'todos']);
      expect(types.every((t) => t.hasDescription)).toBe(true);
      expect(s.stderr()).toMatch(/the vault folder was empty: wrote the flint profile's default content/);
      await fs.access(path.join(folder, '.flint-note', 'config.yml'));
    } finally {
      await s.close();
    }
    // A folder that already holds notes is opened as it is.
    const kept = path.join(base, 'kept');
    await fs.mkdir(path.join(kept, 'ideas'), { recursive: true });
    await fs.writeFile(path.join(kept, 'ideas', 'one.md'), '# One\n');
    const again = await connectStdio(['serve', '--profile', 'flint', '--workspace-path', kept], env);
    try {
      expect((await ok<Array<{ name: string }>>(again, 'list_note_types')).map((t) => t.name)).toEqual(['ideas']);
    } finally {
      await again.close();
    }
  });

  it('--vault and --workspace naming different folders is a usage error', async () => {
    const run = await runCli(
      ['serve', '--profile', 'flint', '--vault', path.join(base, 'a'), '--workspace', path.join(base, 'b')],
      { env },
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--vault and --workspace name different folders/);
  });

  it("flint-note's own registry (~/.config/flint-note/config.yml, under XDG_CONFIG_HOME) is read: its vaults are listed and its current vault is served", async () => {
    const own = path.join(base, 'fn');
    const workFolder = path.join(own, 'work-notes');
    await fs.mkdir(path.join(workFolder, 'general'), { recursive: true });
    await fs.writeFile(path.join(workFolder, 'general', 'hello.md'), '---\ntitle: Hello\n---\n\nFrom flint-note\n');
    await fs.mkdir(path.join(own, 'xdg', 'flint-note'), { recursive: true });
    // flint-note's GlobalConfigManager format (version, current_vault, vaults by id, settings).
    await fs.writeFile(
      path.join(own, 'xdg', 'flint-note', 'config.yml'),
      [
        'current_vault: work',
        'settings:',
        '  auto_switch_on_create: true',
        'vaults:',
        '  work:',
        '    created: "2024-01-15T10:30:00Z"',
        '    description: Professional projects and meeting notes',
        '    id: work',
        '    last_accessed: "2024-01-15T10:30:00Z"',
        '    name: Work Notes',
        `    path: ${workFolder}`,
        '  Bad Id:',
        '    name: Bad',
        `    path: ${own}`,
        "version: '1.0.0'",
        '',
      ].join('\n'),
    );
    const ownEnv = { NOTEKERNEL_CONFIG_DIR: path.join(own, 'nk-config'), XDG_CONFIG_HOME: path.join(own, 'xdg') };
    const list = await runCli(['list', '--json'], { env: ownEnv });
    expect(list.code).toBe(0);
    const listed = JSON.parse(list.stdout) as {
      vaults: Array<{ id: string; name: string; path: string; description: string }>;
      current_vault: string;
    };
    expect(listed.vaults).toEqual([
      expect.objectContaining({
        id: 'work',
        name: 'Work Notes',
        path: workFolder,
        description: 'Professional projects and meeting notes',
      }),
    ]);
    expect(listed.current_vault).toBe('work');
    const registry = await fs.readFile(path.join(own, 'nk-config', 'vaults.yml'), 'utf8');
    expect(registry).toMatch(/imported_from_flint_note:/);
    expect(registry).toMatch(/Bad Id: not a valid vault id/);
    // No --vault: the registry's current vault, flint-note's "work", is served.
    const s = await connectStdio(['serve', '--profile', 'flint'], ownEnv);
    try {
      expect(await ok(s, 'get_current_vault')).toMatchObject({ id: 'work', path: workFolder, registered: true });
      expect(await ok(s, 'get_note', { identifier: 'general/hello.md' })).toMatchObject({ title: 'Hello' });
    } finally {
      await s.close();
    }
    // Imported once: a vault removed afterwards stays removed; flint-note's file is never written.
    expect((await runCli(['remove', 'work', '--json'], { env: ownEnv })).code).toBe(0);
    expect(JSON.parse((await runCli(['list', '--json'], { env: ownEnv })).stdout)).toMatchObject({ vaults: [] });
    expect(await fs.readFile(path.join(own, 'xdg', 'flint-note', 'config.yml'), 'utf8')).toContain(
      'current_vault: work',
    );
  });
});

describe('mcp_server.auto_switch_vault (seed 000 global config)', () => {
  it('true: a call naming another vault by vault_id makes it the current one; without it the current vault stays', async () => {
    const dir = path.join(base, 'switch');
    const switchEnv = { NOTEKERNEL_CONFIG_DIR: path.join(dir, 'config'), XDG_CONFIG_HOME: path.join(dir, 'xdg') };
    await fs.mkdir(path.join(dir, 'config'), { recursive: true });
    await fs.mkdir(path.join(dir, 'one'));
    await fs.mkdir(path.join(dir, 'two'));
    const registry = (auto: boolean) =>
      fs.writeFile(
        path.join(dir, 'config', 'vaults.yml'),
        `vaults:\n  one:\n    name: One\n    path: ${path.join(dir, 'one')}\n  two:\n    name: Two\n    path: ${path.join(dir, 'two')}\ncurrent_vault: one\nmcp_server:\n  auto_switch_vault: ${auto}\n`,
      );
    await registry(false);
    const s = await connectStdio(['serve', '--profile', 'flint'], switchEnv);
    try {
      await ok(s, 'create_note', { vault_id: 'two', title: 'Stays', content: 'x' });
      expect(await ok(s, 'list_vaults')).toMatchObject({ current_vault: 'one' });
      expect(await ok(s, 'get_current_vault')).toMatchObject({ id: 'one' });
      await registry(true);
      await ok(s, 'create_note', { vault_id: 'two', title: 'Switches', content: 'x' });
      expect(await ok(s, 'list_vaults')).toMatchObject({ current_vault: 'two' });
      expect(await ok(s, 'get_current_vault')).toMatchObject({ id: 'two', note_count: 2 });
      // Calls without vault_id now go to "two".
      expect(await ok(s, 'get_note', { identifier: 'general/switches.md' })).toMatchObject({ title: 'Switches' });
      expect(await fs.readFile(path.join(dir, 'config', 'vaults.yml'), 'utf8')).toMatch(/auto_switch_vault: true/);
    } finally {
      await s.close();
    }
  });
});
