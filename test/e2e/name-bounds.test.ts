/**
 * Names and paths are bounded where a tool takes them (issue 32, item 5; kernel/name-limits.ts),
 * through the real MCP client against the built server: a 100,000-character identifier, title,
 * note type, vault id or vault name is refused as validation_failed naming the field and the
 * limit — not `internal: ENAMETOOLONG`, not accepted — and nothing is written: no note file, no
 * type folder, no registry entry. Ordinary names still work, and tools/list does not carry the
 * bounds (decision 017).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, connectStdio, type StdioSession } from '../support/mcp.js';
import { removeDir, tempDir } from '../support/temp.js';

const HUGE = 'n'.repeat(100_000);
const PATH_LIMIT = /at most 4,096 characters \(a path's limit\)/;
const NAME_LIMIT = /at most 255 characters \(a file name's limit\)/;
const TITLE_LIMIT = /at most 1,024 characters \(a title's limit\)/;

let vault: string;
let parent: string;
let session: StdioSession;

/** Every file and folder below `dir`, relative, sorted: what a refused call must leave alone. */
async function tree(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true });
  return entries.filter((e) => !e.split(path.sep).some((part) => part.startsWith('.'))).sort();
}

async function registryText(): Promise<string> {
  return fs.readFile(path.join(process.env.NOTEKERNEL_CONFIG_DIR as string, 'vaults.yml'), 'utf8').catch(() => '');
}

beforeAll(async () => {
  parent = await tempDir('nk-e2e-names-');
  vault = path.join(parent, 'main');
  await fs.mkdir(vault);
  session = await connectStdio(['serve', '--profile', 'flint', '--vault', vault]);
  await callTool(session.client, 'create_note', { title: 'Kept', content: 'a note that stays' });
});

afterAll(async () => {
  await session?.close();
  if (parent) await removeDir(parent);
});

interface Refusal {
  tool: string;
  args: Record<string, unknown>;
  field: string;
  limit: RegExp;
}

const REFUSALS: Refusal[] = [
  { tool: 'get_note', args: { identifier: HUGE }, field: 'identifier', limit: PATH_LIMIT },
  { tool: 'get_notes', args: { identifiers: ['general/kept.md', HUGE] }, field: 'identifiers.1', limit: PATH_LIMIT },
  {
    tool: 'update_note',
    args: { identifier: HUGE, content: 'x', content_hash: 'h' },
    field: 'identifier',
    limit: PATH_LIMIT,
  },
  { tool: 'delete_note', args: { identifier: HUGE, confirm: true }, field: 'identifier', limit: PATH_LIMIT },
  { tool: 'get_note_links', args: { identifier: HUGE }, field: 'identifier', limit: PATH_LIMIT },
  { tool: 'create_note', args: { title: HUGE, content: 'x' }, field: 'title', limit: TITLE_LIMIT },
  { tool: 'create_note', args: { title: 'Fine', type: HUGE, content: 'x' }, field: 'type', limit: NAME_LIMIT },
  {
    tool: 'create_note',
    args: {
      notes: [
        { title: 'Fine', content: 'x' },
        { title: HUGE, content: 'x' },
      ],
    },
    field: 'notes.1.title',
    limit: TITLE_LIMIT,
  },
  {
    tool: 'rename_note',
    args: { identifier: 'general/kept.md', new_title: HUGE, content_hash: 'h' },
    field: 'new_title',
    limit: TITLE_LIMIT,
  },
  {
    tool: 'move_note',
    args: { identifier: 'general/kept.md', new_type: HUGE, content_hash: 'h' },
    field: 'new_type',
    limit: NAME_LIMIT,
  },
  { tool: 'list_notes_by_type', args: { type: HUGE }, field: 'type', limit: NAME_LIMIT },
  { tool: 'create_note_type', args: { type_name: HUGE, description: 'x' }, field: 'type_name', limit: NAME_LIMIT },
  { tool: 'get_note_type_info', args: { type_name: HUGE }, field: 'type_name', limit: NAME_LIMIT },
  { tool: 'create_vault', args: { vault_id: 'fine', name: HUGE, path: '../fine' }, field: 'name', limit: NAME_LIMIT },
  {
    tool: 'create_vault',
    args: { vault_id: HUGE, name: 'Fine', path: '../fine' },
    field: 'vault_id',
    limit: NAME_LIMIT,
  },
  {
    tool: 'create_vault',
    args: { vault_id: 'fine', name: 'Fine', path: `../${HUGE}` },
    field: 'path',
    limit: PATH_LIMIT,
  },
  { tool: 'update_vault', args: { vault_id: 'main', name: HUGE }, field: 'name', limit: NAME_LIMIT },
  { tool: 'get_note', args: { identifier: 'general/kept.md', vault_id: HUGE }, field: 'vault_id', limit: NAME_LIMIT },
];

describe('a 100,000-character name or path', () => {
  for (const r of REFUSALS) {
    it(`${r.tool} refuses ${r.field} as validation_failed naming it and the limit, writing nothing`, async () => {
      const before = { files: await tree(parent), registry: await registryText() };
      const answer = await callTool(session.client, r.tool, r.args);
      expect(answer.isError).toBe(true);
      const body = answer.body as { error: string; message: string; fields?: string[]; field?: string };
      expect(body.error).toBe('validation_failed');
      expect(body.fields ?? [body.field]).toContain(r.field);
      expect(body.message).toContain(r.field);
      expect(body.message).toMatch(r.limit);
      // The refusal is a sentence, not an echo of what was refused.
      expect(body.message.length).toBeLessThan(1_000);
      expect(await tree(parent)).toEqual(before.files);
      expect(await registryText()).toEqual(before.registry);
    });
  }

  it('left the vault serving: the note is there, names within the bounds work', async () => {
    const kept = await callTool(session.client, 'get_note', { identifier: 'general/kept.md' });
    expect(kept.isError).toBe(false);
    const long = 'A long but fair title '.repeat(40).trim();
    const created = await callTool(session.client, 'create_note', { title: long, content: 'x' });
    expect(created.isError, JSON.stringify(created.body)).toBe(false);
    expect(await tree(vault)).not.toContainEqual(expect.stringMatching(/n{1000}/));
  });

  it('tools/list does not carry the file-system bounds', async () => {
    const { tools } = await session.client.listTools();
    expect(JSON.stringify(tools)).not.toMatch(/"maxLength":(255|1024|4096)\b/);
  });
});

describe('a 100,000-character name or title on agent-memory', () => {
  let memory: string;
  let server: StdioSession;

  beforeAll(async () => {
    memory = path.join(parent, 'memory');
    await fs.mkdir(memory);
    server = await connectStdio(['serve', '--profile', 'agent-memory', '--vault', memory]);
  });

  afterAll(async () => {
    await server?.close();
  });

  const MEMORY_REFUSALS: Refusal[] = [
    { tool: 'memory_capture', args: { title: HUGE, body: 'x' }, field: 'title', limit: TITLE_LIMIT },
    { tool: 'memory_capture', args: { title: 'Fine', body: 'x', org: HUGE }, field: 'org', limit: NAME_LIMIT },
    { tool: 'memory_capture', args: { title: 'Fine', body: 'x', tags: [HUGE] }, field: 'tags.0', limit: NAME_LIMIT },
    { tool: 'memory_read', args: { id: HUGE }, field: 'id', limit: NAME_LIMIT },
    { tool: 'memory_rename', args: { id: 'id__Ab3xYz', newTitle: HUGE }, field: 'newTitle', limit: TITLE_LIMIT },
    { tool: 'memory_replace_link', args: { oldId: HUGE, newId: 'id__Ab3xYz' }, field: 'oldId', limit: NAME_LIMIT },
  ];

  for (const r of MEMORY_REFUSALS) {
    it(`${r.tool} refuses ${r.field} as validation_failed naming it and the limit, writing nothing`, async () => {
      const before = await tree(memory);
      const answer = await callTool(server.client, r.tool, r.args);
      expect(answer.isError).toBe(true);
      const body = answer.body as { error: string; message: string };
      expect(body.error).toBe('validation_failed');
      expect(body.message).toContain(r.field);
      expect(body.message).toMatch(r.limit);
      expect(body.message.length).toBeLessThan(1_000);
      expect(await tree(memory)).toEqual(before);
    });
  }
});
