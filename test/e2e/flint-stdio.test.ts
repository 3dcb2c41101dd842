/**
 * End to end over stdio: the SDK's Client spawns the built `notekernel serve --profile flint`
 * on a temp vault. Real files, real SQLite, nothing of ours mocked.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yaml from 'js-yaml';
import { callTool, connectStdio, type StdioSession } from '../support/mcp.js';
import { removeDir, tempDir } from '../support/temp.js';

let root: string;
let session: StdioSession;

async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await fs.readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && !entry.parentPath.includes('.flint-note'))
      out.push(path.relative(dir, path.join(entry.parentPath, entry.name)));
  }
  return out.sort();
}

beforeAll(async () => {
  root = await tempDir('nk-e2e-stdio-');
  await fs.mkdir(path.join(root, 'general'));
  await fs.writeFile(path.join(root, 'general', 'broken-yaml.md'), '---\ntitle: [unclosed\n---\n\nBody survives.\n');
  await fs.writeFile(path.join(root, 'general', 'binary.md'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0xff]));
  session = await connectStdio(['serve', '--profile', 'flint', '--vault', root]);
});

afterAll(async () => {
  await session?.close();
  await removeDir(root);
});

describe('flint profile over stdio', () => {
  it('lists the three tools with JSON schemas, field descriptions and annotations', async () => {
    const { tools } = await session.client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const name of ['create_note', 'get_note', 'list_note_types']) expect(byName.has(name)).toBe(true);
    const create = byName.get('create_note');
    expect(create?.inputSchema.type).toBe('object');
    expect(Object.keys(create?.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(['type', 'title', 'content', 'metadata', 'notes', 'vault_id']),
    );
    const props = create?.inputSchema.properties as Record<string, { description?: string }>;
    expect(props.title?.description).toBeTruthy();
    // MCP's defaults are left out of tools/list: a write has no readOnlyHint, a read no destructive/idempotent hints.
    expect(create?.annotations).toMatchObject({ destructiveHint: false });
    expect(create?.annotations?.readOnlyHint ?? false).toBe(false);
    expect(byName.get('get_note')?.annotations).toMatchObject({ readOnlyHint: true });
  });

  it('create_note writes general/<slug>.md with frontmatter, and get_note returns it with its hash', async () => {
    const created = await callTool(session.client, 'create_note', {
      type: 'general',
      title: 'Meeting Notes: Q3 Plan',
      content: 'Decide the roadmap.\n',
      metadata: { tags: ['work'] },
    });
    expect(created.isError).toBe(false);
    expect(created.body).toMatchObject({
      id: 'general/meeting-notes-q3-plan.md',
      type: 'general',
      title: 'Meeting Notes: Q3 Plan',
      filename: 'meeting-notes-q3-plan.md',
    });
    expect(created.body).toHaveProperty('agent_instructions');

    const file = path.join(root, 'general', 'meeting-notes-q3-plan.md');
    const text = await fs.readFile(file, 'utf8');
    const front = yaml.load(/^---\n([\s\S]*?)\n---/.exec(text)?.[1] ?? '', { schema: yaml.CORE_SCHEMA }) as Record<
      string,
      unknown
    >;
    expect(front).toMatchObject({ title: 'Meeting Notes: Q3 Plan', type: 'general', tags: ['work'] });
    expect(Date.parse(String(front.created))).not.toBeNaN();
    expect(front.updated).toBe(front.created);
    expect(text.endsWith('Decide the roadmap.\n')).toBe(true);

    const got = await callTool(session.client, 'get_note', { identifier: 'general/meeting-notes-q3-plan.md' });
    expect(got.isError).toBe(false);
    const expectedHash = `sha256:${createHash('sha256')
      .update(await fs.readFile(file))
      .digest('hex')}`;
    expect(got.body).toMatchObject({
      id: 'general/meeting-notes-q3-plan.md',
      title: 'Meeting Notes: Q3 Plan',
      content: 'Decide the roadmap.\n',
      content_hash: expectedHash,
    });

    const filtered = await callTool(session.client, 'get_note', {
      identifier: 'general/meeting-notes-q3-plan',
      fields: ['title', 'content_hash', 'metadata.tags', 'nonsense'],
    });
    expect(filtered.body).toEqual({
      title: 'Meeting Notes: Q3 Plan',
      content_hash: expectedHash,
      metadata: { tags: ['work'] },
    });
  });

  it('changes the hash when another program edits the note', async () => {
    const before = (await callTool(session.client, 'get_note', { identifier: 'general/meeting-notes-q3-plan.md' }))
      .body as { content_hash: string };
    const file = path.join(root, 'general', 'meeting-notes-q3-plan.md');
    await fs.writeFile(file, (await fs.readFile(file, 'utf8')).replace('tags:\n  - work', 'tags:\n  - home'));
    const after = (await callTool(session.client, 'get_note', { identifier: 'general/meeting-notes-q3-plan.md' }))
      .body as { content_hash: string; metadata: { tags: string[] } };
    expect(after.content_hash).not.toBe(before.content_hash);
    expect(after.metadata.tags).toEqual(['home']);
  });

  it('answers bad arguments with isError naming the field, and writes nothing', async () => {
    const before = await listFiles(root);
    const missing = await callTool(session.client, 'create_note', { type: 'general', content: 'no title' });
    expect(missing.isError).toBe(true);
    expect(missing.body).toMatchObject({ error: 'validation_failed', fields: ['title'] });
    expect((missing.body as { message: string }).message).toContain('title');

    const wrongType = await callTool(session.client, 'create_note', { title: 'x', content: 7 });
    expect(wrongType.body).toMatchObject({ error: 'validation_failed', fields: ['content'] });

    const badNoteType = await callTool(session.client, 'create_note', { type: '../outside', title: 'x', content: 'y' });
    expect(badNoteType.isError).toBe(true);
    expect(await listFiles(root)).toEqual(before);
    await expect(fs.access(path.join(root, '..', 'outside'))).rejects.toThrow();
  });

  it('refuses identifiers that leave the vault with path_outside_vault', async () => {
    for (const identifier of [
      '../../etc/passwd',
      '/etc/passwd',
      'general/../../x.md',
      'general/a\u0000b.md',
      'general\\..\\x.md',
    ]) {
      const answer = await callTool(session.client, 'get_note', { identifier });
      expect(answer.isError, identifier).toBe(true);
      expect((answer.body as { error: string }).error, identifier).toBe('path_outside_vault');
    }
  });

  it('serves a note whose frontmatter is not valid YAML, with a warning', async () => {
    const answer = await callTool(session.client, 'get_note', { identifier: 'general/broken-yaml.md' });
    expect(answer.isError).toBe(false);
    expect(answer.body).toMatchObject({ content: 'Body survives.\n', metadata: {} });
    expect((answer.body as { warnings: string[] }).warnings[0]).toMatch(/not valid YAML/);
  });

  it('skipped the binary .md with a logged warning and keeps serving', async () => {
    expect(session.stderr()).toMatch(/general\/binary\.md/);
    const types = await callTool(session.client, 'list_note_types');
    expect(types.isError).toBe(false);
    const general = (types.body as Array<{ name: string; noteCount: number }>).find((t) => t.name === 'general');
    expect(general?.noteCount).toBe(2); // broken-yaml + the created note; binary skipped
  });

  it('logs nothing but protocol on stdout: stderr carries the logs', () => {
    expect(session.stderr()).toMatch(/serving MCP over stdio/);
  });
});
