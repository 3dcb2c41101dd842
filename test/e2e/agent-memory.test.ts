/**
 * End to end over MCP stdio: the SDK's Client spawns the built `notekernel serve --profile
 * agent-memory` on a memory root that is a real git working tree, and walks seed 002's user
 * stories one by one: capture → link → rename → links / orphans / broken links.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, connectStdio, type StdioSession } from '../support/mcp.js';
import { removeDir, tempDir } from '../support/temp.js';
import { git, gitTimes, iso, write } from '../unit/markdown-git/helpers.js';

interface Entry {
  id: string;
  title: string;
  tags: string[];
  links: Array<{ id: string; displayText: string }>;
  body: string;
  createdAt: string;
  updatedAt: string;
  status: string;
  path: string;
}

let root: string;
let session: StdioSession;
const ids: Record<string, string> = {};

async function call<T>(name: string, args: Record<string, unknown> = {}): Promise<T> {
  const answer = await callTool(session.client, name, args);
  if (answer.isError) throw new Error(`${name} failed: ${JSON.stringify(answer.body)}`);
  return answer.body as T;
}

function read(rel: string): string {
  return fs.readFileSync(path.join(root, rel), 'utf8');
}

function snapshot(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    const rel = path.relative(root, path.join(entry.parentPath, entry.name));
    if (entry.isFile() && !rel.startsWith('.git'))
      out[rel] = `${fs.statSync(path.join(root, rel)).mtimeMs}:${read(rel)}`;
  }
  return out;
}

beforeAll(async () => {
  root = await tempDir('nk-e2e-memory-');
  git(root, ['init', '-q']);
  write(root, 'kept id__Kept11.md', '# Kept from before\n\n#history\n\ncommitted before the server started\n');
  git(root, ['add', '-A']);
  git(root, ['commit', '-q', '-m', 'seed'], 1_700_000_000);
  session = await connectStdio(['serve', '--profile', 'agent-memory', '--vault', root]);
});

afterAll(async () => {
  await session?.close();
  await removeDir(root);
});

describe('agent-memory over MCP (seed 002 user stories)', () => {
  it('serves the memory tools with described arguments and annotations', async () => {
    const { tools } = await session.client.listTools();
    const names = tools.map((t) => t.name);
    for (const name of [
      'memory_capture',
      'memory_read',
      'memory_list',
      'memory_search',
      'memory_rename',
      'memory_links',
      'memory_orphans',
      'memory_broken_links',
      'memory_archive',
      'memory_unarchive',
      'memory_delete',
      'migrate',
    ]) {
      expect(names).toContain(name);
    }
    expect(names).not.toContain('get_backlinks'); // flint's link tools are not this profile's surface
    const capture = tools.find((t) => t.name === 'memory_capture')!;
    expect(Object.keys((capture.inputSchema as { properties: object }).properties)).toEqual([
      'title',
      'body',
      'tags',
      'org',
    ]);
    expect(tools.find((t) => t.name === 'memory_read')?.annotations?.readOnlyHint).toBe(true);
    expect(tools.find((t) => t.name === 'memory_delete')?.annotations?.destructiveHint ?? true).toBe(true);
  });

  it('US-001: capture writes pure markdown (no header, no frontmatter); read derives everything and writes nothing', async () => {
    const igor = await call<Entry>('memory_capture', {
      title: 'Igor — fullstack developer',
      body: 'igor is a fullstack developer with deep expertise in design.\n',
      tags: ['people', '#work'],
    });
    ids.igor = igor.id;
    expect(igor.id).toMatch(/^id__[1-9A-HJ-NP-Za-km-z]{6}$/);
    expect(read(igor.path)).toBe(
      '# Igor — fullstack developer\n\n#people #work\n\nigor is a fullstack developer with deep expertise in design.\n',
    );
    const before = snapshot();
    const got = await call<Entry>('memory_read', { id: igor.id });
    expect(got).toMatchObject({
      id: igor.id,
      title: 'Igor — fullstack developer',
      tags: ['people', 'work'],
      links: [],
      status: 'active',
      path: igor.path,
    });
    expect(got.body).toBe('igor is a fullstack developer with deep expertise in design.\n');
    expect(Object.keys(got).sort()).toEqual([
      'body',
      'contentHash',
      'createdAt',
      'createdAtMs',
      'id',
      'links',
      'path',
      'status',
      'tags',
      'title',
      'updatedAt',
      'updatedAtMs',
    ]);
    await call('memory_read', { id: igor.id.slice(4) }); // the bare six characters
    await call('memory_list', {});
    expect(snapshot()).toEqual(before);
  });

  it('US-002: tags come from inline #tags — namespaced ones count; headings, code, URLs and colours do not', async () => {
    const body =
      'works on #area__work and #topic__design.\n\n## Subtitle\n\n```\n#not_in_code\n```\n\nsee https://example.com/#anchor and colour #ff0000\n';
    const console = await call<Entry>('memory_capture', { title: 'Console app', body, org: 'axiom' });
    ids.console = console.id;
    expect(console.tags).toEqual(['area__work', 'topic__design']);
    expect(console.path).toMatch(/^orgs\/axiom\/console-app id__\w{6}\.md$/);
    const tagged = await call<Array<{ id: string }>>('memory_list', { tag: '#area__work' });
    expect(tagged.map((e) => e.id)).toEqual([console.id]);
  });

  it('US-003: [[id__X|text]] and [[id__X]] links are extracted with their display text; code is ignored', async () => {
    const body = `he works on the [[${ids.console}|console app]] at axiom.\n\nsee also: [[${ids.console}]] and \`[[id__Code99|in code]]\`\n`;
    const note = await call<Entry>('memory_capture', {
      title: 'Igor at axiom',
      body: `${body}about [[${ids.igor}|Igor — fullstack developer]]\n`,
    });
    ids.note = note.id;
    // Each with seed 002's position: where the whole [[…]] sits in the body.
    const at = (raw: string) => ({ start: note.body.indexOf(raw), end: note.body.indexOf(raw) + raw.length });
    expect(note.links).toEqual([
      { id: ids.console, displayText: 'console app', position: at(`[[${ids.console}|console app]]`) },
      { id: ids.console, displayText: ids.console, position: at(`[[${ids.console}]]`) },
      {
        id: ids.igor,
        displayText: 'Igor — fullstack developer',
        position: at(`[[${ids.igor}|Igor — fullstack developer]]`),
      },
    ]);
    const custom = await call<Entry>('memory_capture', {
      title: 'Design people',
      body: `[[${ids.igor}|our design lead]] and [[id__Gone99|a deleted entry]]\n`,
    });
    ids.custom = custom.id;
  });

  it('US-004: createdAt / updatedAt come from git; uncommitted entries fall back to file times', async () => {
    const kept = await call<Entry>('memory_read', { id: 'id__Kept11' });
    const expected = gitTimes(root, 'kept id__Kept11.md');
    expect(kept).toMatchObject({
      createdAt: iso(expected.created),
      updatedAt: iso(expected.updated),
      tags: ['history'],
    });
    const igor = await call<Entry>('memory_read', { id: ids.igor });
    expect(igor.updatedAt).toBe(fs.statSync(path.join(root, igor.path)).mtime.toISOString());
    git(root, ['add', '-A']);
    git(root, ['commit', '-q', '-m', 'the agent wrote these'], 1_700_001_000);
    expect(await call<Entry>('memory_read', { id: ids.igor })).toMatchObject({
      createdAt: iso(1_700_001_000),
      updatedAt: iso(1_700_001_000),
    });
  });

  it('US-005: rename rewrites the heading, the filename (id kept) and inbound display text that showed the old title', async () => {
    const before = await call<Entry>('memory_read', { id: ids.igor });
    const result = await call<{ id: string; title: string; path: string; updatedInboundLinks: number }>(
      'memory_rename',
      { id: ids.igor, new_title: 'Igor — design lead' },
    );
    expect(result).toMatchObject({ id: ids.igor, title: 'Igor — design lead', updatedInboundLinks: 1 });
    expect(result.path).toBe(`igor-design-lead ${ids.igor}.md`);
    expect(fs.existsSync(path.join(root, before.path))).toBe(false);
    expect(read(result.path)).toBe(
      '# Igor — design lead\n\n#people #work\n\nigor is a fullstack developer with deep expertise in design.\n',
    );
    const linking = await call<Entry>('memory_read', { id: ids.note });
    expect(linking.body).toContain(`[[${ids.igor}|Igor — design lead]]`);
    const custom = await call<Entry>('memory_read', { id: ids.custom });
    expect(custom.body).toContain(`[[${ids.igor}|our design lead]]`); // custom display text kept
  });

  it('US-006: links (inbound + outbound), orphans and broken links', async () => {
    const links = await call<{ inbound: Array<{ id: string; title: string }>; outbound: unknown[] }>('memory_links', {
      id: ids.igor,
    });
    expect(links.inbound.map((l) => l.id).sort()).toEqual([ids.note, ids.custom].sort());
    expect(links.inbound.find((l) => l.id === ids.note)?.title).toBe('Igor at axiom');
    expect(links.outbound).toEqual([]);
    const fromNote = await call<{ outbound: Array<{ id: string }> }>('memory_links', { id: ids.note });
    expect(fromNote.outbound.map((l) => l.id)).toEqual([ids.console, ids.console, ids.igor]);
    expect(await call<string[]>('memory_orphans')).toEqual(['id__Kept11', ids.note, ids.custom].sort());
    expect(await call('memory_broken_links')).toEqual([{ sourceId: ids.custom, targetId: 'id__Gone99' }]);
  });

  it('US-007: list derives metadata from filenames and bodies; status is the folder (archive, unarchive), org kept', async () => {
    const all = await call<Array<{ id: string; path: string; status: string; org?: string }>>('memory_list', {
      status: 'all',
    });
    expect(all).toHaveLength(5);
    for (const entry of all) expect(path.basename(entry.path)).toMatch(/^[^_][^ ]* id__\w{6}\.md$/);
    expect(all.find((e) => e.id === ids.console)).toMatchObject({ org: 'axiom', status: 'active' });
    const archived = await call<{ path: string; status: string }>('memory_archive', { id: ids.console });
    expect(archived.path).toMatch(/^orgs\/axiom\/archive\/console-app id__\w{6}\.md$/);
    expect((await call<Array<{ id: string }>>('memory_list', {})).map((e) => e.id)).not.toContain(ids.console);
    expect(
      (await call<Array<{ id: string }>>('memory_list', { status: 'archived', org: 'axiom' })).map((e) => e.id),
    ).toEqual([ids.console]);
    expect((await call<{ inbound: unknown[] }>('memory_links', { id: ids.console })).inbound).toHaveLength(1); // links survive the move
    const back = await call<{ path: string }>('memory_unarchive', { id: ids.console });
    expect(back.path).toMatch(/^orgs\/axiom\/console-app id__\w{6}\.md$/);
    // A question: the entry holding both words first (any other holds one of them).
    const hits = await call<Array<{ id: string; snippet: string }>>('memory_search', { query: 'DESIGN expertise' });
    expect(hits[0]?.id).toBe(ids.igor);
    expect(
      (await call<Array<{ id: string }>>('memory_search', { query: 'DESIGN AND expertise' })).map((h) => h.id),
    ).toEqual([ids.igor]);
    expect(hits[0]?.snippet).toContain('<mark>');
    await call('memory_delete', { id: ids.custom });
    expect(await call('memory_broken_links')).toEqual([]);
  });

  it('bad input: a file without id__ is "not an entry"; two files with one id are both reported; ids are validated', async () => {
    write(root, 'notes without id.md', '# Stray\n\nno id in my name\n');
    fs.copyFileSync(path.join(root, 'kept id__Kept11.md'), path.join(root, 'copy of kept id__Kept11.md'));
    const doctor = await call<{
      notEntries: Array<{ path: string; reason: string }>;
      duplicateIds: unknown[];
      ok: boolean;
    }>('memory_doctor');
    expect(doctor.notEntries).toEqual([
      { path: 'notes without id.md', reason: expect.stringContaining('not an entry') },
    ]);
    expect(doctor.duplicateIds).toEqual([
      { id: 'id__Kept11', paths: ['copy of kept id__Kept11.md', 'kept id__Kept11.md'] },
    ]);
    expect(doctor.ok).toBe(false);
    // Neither file is dropped from a listing, and the stray file does not break it.
    const listed = await call<Array<{ id: string; path: string }>>('memory_list', { status: 'all' });
    expect(
      listed
        .filter((e) => e.id === 'id__Kept11')
        .map((e) => e.path)
        .sort(),
    ).toEqual(['copy of kept id__Kept11.md', 'kept id__Kept11.md']);
    const refused = await callTool(session.client, 'memory_rename', { id: 'id__Kept11', new_title: 'Which one?' });
    expect(refused).toMatchObject({ isError: true, body: { error: 'conflict' } });
    const bad = await callTool(session.client, 'memory_read', { id: 'not an id' });
    expect(bad).toMatchObject({ isError: true, body: { error: 'validation_failed' } });
    const missing = await callTool(session.client, 'memory_read', { id: 'id__Nope99' });
    expect(missing).toMatchObject({ isError: true, body: { error: 'not_found' } });
  });
});

describe('agent-memory on a plain folder (no git)', () => {
  it('serves, captures and reads; timestamps fall back to file times with one warning', async () => {
    const plain = await tempDir('nk-e2e-plain-');
    const server = await connectStdio(['serve', '--profile', 'agent-memory', '--vault', plain]);
    try {
      const first = await callTool(server.client, 'memory_capture', { title: 'First memory', body: 'hello\n' });
      const second = await callTool(server.client, 'memory_capture', {
        title: 'Second memory',
        body: `see [[${(first.body as Entry).id}]]\n`,
      });
      const got = await callTool(server.client, 'memory_read', { id: (first.body as Entry).id });
      expect(got.isError).toBe(false);
      expect(got.body).toMatchObject({ title: 'First memory', status: 'active' });
      expect((got.body as Entry).updatedAt).toBe(
        fs.statSync(path.join(plain, (got.body as Entry).path)).mtime.toISOString(),
      );
      expect((await callTool(server.client, 'memory_links', { id: (first.body as Entry).id })).body).toMatchObject({
        inbound: [{ id: (second.body as Entry).id }],
      });
      await callTool(server.client, 'memory_list', {});
      expect(server.stderr().match(/timestamps fall back to file times/g)).toHaveLength(1);
      expect(fs.existsSync(path.join(plain, '.git'))).toBe(false);
    } finally {
      await server.close();
      await removeDir(plain);
    }
  });
});

describe("memory_update and a new entry's times", () => {
  it('updates body and tags with the read contentHash, refuses a stale one; createdAt is never after updatedAt', async () => {
    const plain = await tempDir('nk-e2e-update-');
    const server = await connectStdio(['serve', '--profile', 'agent-memory', '--vault', plain]);
    try {
      const first = (
        await callTool(server.client, 'memory_capture', { title: 'Plan', body: 'draft\n', tags: ['work'] })
      ).body as Entry & { contentHash: string };
      expect(Date.parse(first.createdAt)).toBeLessThanOrEqual(Date.parse(first.updatedAt));
      const updated = await callTool(server.client, 'memory_update', {
        id: first.id,
        contentHash: first.contentHash,
        body: 'final\n',
        tags: ['work', 'done'],
      });
      expect(updated.isError, JSON.stringify(updated.body)).toBe(false);
      expect(updated.body).toMatchObject({ id: first.id, title: 'Plan', body: 'final\n', tags: ['work', 'done'] });
      const text = fs.readFileSync(path.join(plain, (updated.body as Entry).path), 'utf8');
      expect(text).toContain('final');
      expect(text).toContain('#done');
      const stale = await callTool(server.client, 'memory_update', {
        id: first.id,
        contentHash: first.contentHash,
        body: 'lost\n',
      });
      expect(stale.isError).toBe(true);
      expect(stale.body).toMatchObject({ error: 'content_hash_mismatch' });
    } finally {
      await server.close();
      await removeDir(plain);
    }
  });
});

describe('the defrag prompt (seed 002 US-008)', () => {
  it('is served as an MCP prompt listing the active entries, without usage fields, asking for hotTier/warmTier/actions', async () => {
    const plain = await tempDir('nk-e2e-defrag-');
    const server = await connectStdio(['serve', '--profile', 'agent-memory', '--vault', plain]);
    try {
      const entry = (
        await callTool(server.client, 'memory_capture', {
          title: 'Deploy steps',
          body: 'run the script\n',
          tags: ['area__ops'],
        })
      ).body as Entry;
      const { prompts } = await server.client.listPrompts();
      expect(prompts.map((p) => p.name)).toContain('memory_defrag');
      const got = await server.client.getPrompt({ name: 'memory_defrag', arguments: { focus: 'the release' } });
      const text = (got.messages[0]!.content as { text: string }).text;
      expect(text).toContain(entry.id);
      expect(text).toContain('#area__ops');
      expect(text).toContain('Focus: the release');
      expect(text).toMatch(/"hotTier".*"warmTier".*"actions"/s);
      expect(text).not.toMatch(/last_used|pinned|\bused\b/);
    } finally {
      await server.close();
      await removeDir(plain);
    }
  });
});
