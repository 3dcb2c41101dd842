/**
 * Issue 31, agent-memory (seed 002): what a prompt or script written for the seed still hits,
 * through the SDK's Client over stdio on the built CLI (and the CLI itself), on a real git
 * repository holding the seed's literal example entry:
 * - a defrag merge retargets links with the seed's `replaceLink` (memory_replace_link), and a
 *   link listing carries each link's position as the seed's `extractLinks` does;
 * - timestamps come as the seed's epoch numbers and as ISO strings;
 * - every argument takes the seed's spelling and the snake_case one, as the server's
 *   instructions write them; an unknown argument is still refused with a did-you-mean;
 * - `notekernel call` run inside a memory folder serves that folder; a README is no problem.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, connectStdio, type StdioSession } from '../support/mcp.js';
import { runCli } from '../support/run-cli.js';
import { removeDir, tempDir } from '../support/temp.js';
import { git, iso, write } from '../unit/markdown-git/helpers.js';

/** The seed's example, byte for byte (filename: `igor-fullstack-developer id__Ab3xYz.md`). */
const IGOR = 'igor-fullstack-developer id__Ab3xYz.md';
const IGOR_TEXT = `# Igor — fullstack developer, design expertise

#people #work

igor is a fullstack developer with deep expertise in design.
he works on the [[id__Kf9mNp|console app]] at axiom.

see also: [[id__Qw2vBc|query builder decisions]]
`;
const DESIGN = 'design-review id__Dsg001.md';
const DESIGN_TEXT =
  '# Design review\n\n#work\n\nreviewed [[id__Kf9mNp]] with igor.\n\n```\n[[id__Kf9mNp|in code: not a link]]\n```\n';
const T = 1_700_000_000;

interface Link {
  id: string;
  displayText: string;
  position: { start: number; end: number };
}
interface Entry {
  id: string;
  title: string;
  body: string;
  links: Link[];
  createdAt: string | number;
  updatedAt: string | number;
  createdAtMs?: number;
  updatedAtMs?: number;
  createdAtIso?: string;
  updatedAtIso?: string;
  contentHash: string;
  path: string;
}

let root: string;
let session: StdioSession;

async function call<T>(name: string, args: Record<string, unknown> = {}, on: StdioSession = session): Promise<T> {
  const answer = await callTool(on.client, name, args);
  if (answer.isError) throw new Error(`${name} failed: ${JSON.stringify(answer.body)}`);
  return answer.body as T;
}

function read(rel: string): string {
  return fs.readFileSync(path.join(root, rel), 'utf8');
}

/** Every file under the root but .git and the metadata folder, with its bytes. */
function files(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    const rel = path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
    if (entry.isFile() && !rel.startsWith('.git/') && !rel.startsWith('.notekernel/')) out[rel] = read(rel);
  }
  return out;
}

beforeAll(async () => {
  root = await tempDir('nk-e2e-memory-drop-in-');
  git(root, ['init', '-q']);
  write(root, IGOR, IGOR_TEXT);
  write(
    root,
    'console-app id__Kf9mNp.md',
    '# Console app\n\n#work\n\nthe console app at axiom (a later note of the same thing).\n',
  );
  write(
    root,
    'axiom-console id__Axm001.md',
    '# Axiom console\n\n#work\n\nthe console app axiom ships; igor works on it.\n',
  );
  write(root, 'query-builder-decisions id__Qw2vBc.md', '# Query builder decisions\n\nbuild queries as data.\n');
  write(root, DESIGN, DESIGN_TEXT);
  write(root, 'stale id__Stl001.md', '# Stale\n\npoints at [[id__Gone99|a deleted entry]]\n');
  write(root, 'README.md', "# My agent's memory\n\nEntries are `slug id__XXXXXX.md` files.\n");
  git(root, ['add', '-A']);
  git(root, ['commit', '-q', '-m', 'the seed example'], T);
  session = await connectStdio(['serve', '--profile', 'agent-memory', '--vault', root]);
});

afterAll(async () => {
  await session?.close();
  await removeDir(root);
});

describe("links: the seed's extractLinks positions and replaceLink", () => {
  it("memory_read lists the example's links as extractLinks does: { id, displayText, position: { start, end } } in the body", async () => {
    const igor = await call<Entry>('memory_read', { id: 'id__Ab3xYz' });
    expect(igor.links).toEqual([
      { id: 'id__Kf9mNp', displayText: 'console app', position: expect.any(Object) },
      { id: 'id__Qw2vBc', displayText: 'query builder decisions', position: expect.any(Object) },
    ]);
    expect(igor.links.map((l) => igor.body.slice(l.position.start, l.position.end))).toEqual([
      '[[id__Kf9mNp|console app]]',
      '[[id__Qw2vBc|query builder decisions]]',
    ]);
    const links = await call<{ outbound: Link[] }>('memory_links', { id: 'id__Ab3xYz' });
    expect(links.outbound).toEqual(igor.links);
  });

  it('the defrag prompt asks for merges carried out with memory_replace_link', async () => {
    const got = await session.client.getPrompt({ name: 'memory_defrag', arguments: {} });
    expect((got.messages[0]!.content as { text: string }).text).toMatch(/merge.*memory_replace_link/s);
  });

  it("a dry run (the seed's dryRun) shows every referring entry's diff and writes nothing", async () => {
    const before = files();
    const plan = await call<{ dry_run: boolean; notes: Array<{ id: string; diff: string }>; refused: unknown[] }>(
      'memory_replace_link',
      { oldId: 'id__Kf9mNp', newId: 'id__Axm001', dryRun: true },
    );
    expect(plan.dry_run).toBe(true);
    expect(plan.refused).toEqual([]);
    expect(plan.notes.map((n) => n.id).sort()).toEqual(['id__Ab3xYz', 'id__Dsg001']);
    expect(plan.notes.find((n) => n.id === 'id__Ab3xYz')?.diff).toContain(
      '+he works on the [[id__Axm001|console app]] at axiom.',
    );
    expect(files()).toEqual(before);
  });

  it('merging console app into the older entry: every referring entry is rewritten, display text and code kept, and the answer says what changed', async () => {
    const before = files();
    const done = await call<{
      oldId: string;
      newId: string;
      updatedLinks: number;
      updatedEntries: Array<{ id: string; path: string; links: number }>;
      notUpdated: unknown[];
      operationId: string;
    }>(
      'memory_replace_link',
      { old_id: 'Kf9mNp', new_id: 'id__Axm001' }, // snake_case and a bare id work too
    );
    expect(done).toMatchObject({ oldId: 'id__Kf9mNp', newId: 'id__Axm001', updatedLinks: 2, notUpdated: [] });
    expect(
      done.updatedEntries
        .map(({ id, path: p, links }) => ({ id, path: p, links }))
        .sort((a, b) => a.id.localeCompare(b.id)),
    ).toEqual([
      { id: 'id__Ab3xYz', path: IGOR, links: 1 },
      { id: 'id__Dsg001', path: DESIGN, links: 1 },
    ]);
    // Only the ids inside the links changed; every other byte and every other file is as it was.
    const after = files();
    expect(after[IGOR]).toBe(IGOR_TEXT.replace('[[id__Kf9mNp|console app]]', '[[id__Axm001|console app]]'));
    expect(after[DESIGN]).toBe(DESIGN_TEXT.replace('reviewed [[id__Kf9mNp]]', 'reviewed [[id__Axm001]]'));
    expect({ ...after, [IGOR]: '', [DESIGN]: '' }).toEqual({ ...before, [IGOR]: '', [DESIGN]: '' });
    // No temp file left behind: each file was replaced whole.
    expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
    // The graph follows: the merged-away entry is an orphan, the kept one has both referrers.
    expect((await call<{ inbound: unknown[] }>('memory_links', { id: 'id__Kf9mNp' })).inbound).toEqual([]);
    expect(
      (await call<{ inbound: Array<{ id: string }> }>('memory_links', { id: 'id__Axm001' })).inbound.map((l) => l.id),
    ).toEqual(['id__Ab3xYz', 'id__Dsg001']);
    expect(await call<string[]>('memory_orphans')).toContain('id__Kf9mNp');
    // Then the merge archives the old entry; a second run has nothing left to do.
    await call('memory_archive', { id: 'id__Kf9mNp' });
    expect(await call('memory_replace_link', { oldId: 'id__Kf9mNp', newId: 'id__Axm001' })).toMatchObject({
      updatedLinks: 0,
      updatedEntries: [],
      changed: false,
    });
  });

  it('the merge is one journalled operation: undo_operation puts every entry back byte for byte', async () => {
    const before = files();
    const done = await call<{ operationId: string }>('memory_replace_link', {
      oldId: 'id__Qw2vBc',
      newId: 'id__Axm001',
    });
    expect(read(IGOR)).toContain('[[id__Axm001|query builder decisions]]');
    await call('undo_operation', { operation_id: done.operationId });
    expect(files()).toEqual(before);
  });

  it('repairs a broken link (oldId need not exist); a newId no entry has is refused and nothing changes', async () => {
    expect(await call('memory_broken_links')).toEqual([{ sourceId: 'id__Stl001', targetId: 'id__Gone99' }]);
    const before = files();
    const typo = await callTool(session.client, 'memory_replace_link', { oldId: 'id__Gone99', newId: 'id__Nope99' });
    expect(typo).toMatchObject({ isError: true, body: { error: 'not_found' } });
    expect(files()).toEqual(before);
    await call('memory_replace_link', { oldId: 'id__Gone99', newId: 'id__Axm001' });
    expect(await call('memory_broken_links')).toEqual([]);
    expect(read('stale id__Stl001.md')).toBe('# Stale\n\npoints at [[id__Axm001|a deleted entry]]\n');
  });
});

describe("timestamps: the seed's epoch numbers beside the ISO strings", () => {
  it('every entry answer carries both: createdAt/updatedAt ISO (as before), createdAtMs/updatedAtMs the same instants in epoch milliseconds', async () => {
    const query = await call<Entry>('memory_read', { id: 'id__Qw2vBc' });
    expect(query).toMatchObject({ createdAt: iso(T), updatedAt: iso(T), createdAtMs: T * 1000, updatedAtMs: T * 1000 });
    const listed = await call<Entry[]>('memory_list', {});
    expect(listed.find((e) => e.id === 'id__Qw2vBc')).toMatchObject({
      createdAt: iso(T),
      createdAtMs: T * 1000,
      updatedAtMs: T * 1000,
    });
    const hits = await call<Entry[]>('memory_search', { query: 'queries as data' });
    expect(hits[0]).toMatchObject({ id: 'id__Qw2vBc', createdAtMs: T * 1000 });
  });

  it("plugins.memory.timestamps: epoch gives the seed's shape: createdAt/updatedAt numbers (ISO beside them)", async () => {
    const dir = await tempDir('nk-e2e-memory-epoch-');
    git(dir, ['init', '-q']);
    write(dir, IGOR, IGOR_TEXT);
    git(dir, ['add', '-A']);
    git(dir, ['commit', '-q', '-m', 'seed'], T);
    write(dir, 'notekernel.config.json', JSON.stringify({ plugins: { memory: { timestamps: 'epoch' } } }));
    const epoch = await connectStdio(['serve', '--profile', 'agent-memory', '--vault', dir]);
    try {
      const igor = await call<Entry>('memory_read', { id: 'id__Ab3xYz' }, epoch);
      expect(igor).toMatchObject({
        createdAt: T * 1000,
        updatedAt: T * 1000,
        createdAtIso: iso(T),
        updatedAtIso: iso(T),
      });
      expect(igor).not.toHaveProperty('createdAtMs');
      // A script written for the seed compares numbers with Date.now().
      expect(typeof igor.updatedAt === 'number' && igor.updatedAt < Date.now()).toBe(true);
      const listed = await call<Entry[]>('memory_list', {}, epoch);
      expect(listed[0]).toMatchObject({ createdAt: T * 1000, updatedAtIso: iso(T) });
      const captured = await call<Entry>('memory_capture', { title: 'New', body: 'x\n' }, epoch);
      expect(typeof captured.createdAt).toBe('number');
    } finally {
      await epoch.close();
      await removeDir(dir);
    }
  });
});

describe("argument spellings: the seed's first, snake_case too, the unknown refused", () => {
  it("tools/list shows the seed's spelling first, then its snake_case twin", async () => {
    const { tools } = await session.client.listTools();
    const props = (name: string) =>
      Object.keys((tools.find((t) => t.name === name)!.inputSchema as { properties: object }).properties);
    expect(props('memory_rename')).toEqual(['id', 'newTitle', 'new_title', 'dryRun', 'dry_run']);
    expect(props('memory_update')).toEqual(['id', 'contentHash', 'content_hash', 'body', 'tags']);
    expect(props('memory_replace_link')).toEqual(['oldId', 'old_id', 'newId', 'new_id', 'dryRun', 'dry_run']);
  });

  it("memory_update takes the content_hash the server's instructions name, and the contentHash memory_read returns", async () => {
    expect(session.client.getInstructions()).toContain('pass its content_hash');
    const first = await call<Entry>('memory_capture', { title: 'Spellings', body: 'one\n' });
    const second = await call<Entry>('memory_update', { id: first.id, content_hash: first.contentHash, body: 'two\n' });
    expect(second.body).toBe('two\n');
    const third = await call<Entry>('memory_update', {
      id: first.id,
      contentHash: second.contentHash,
      body: 'three\n',
    });
    expect(third.body).toBe('three\n');
    const both = await callTool(session.client, 'memory_update', {
      id: first.id,
      contentHash: third.contentHash,
      content_hash: first.contentHash,
      body: 'x\n',
    });
    expect(both).toMatchObject({
      isError: true,
      body: { error: 'validation_failed', fields: ['contentHash', 'content_hash'] },
    });
    const none = await callTool(session.client, 'memory_update', { id: first.id, body: 'x\n' });
    expect(none).toMatchObject({
      isError: true,
      body: {
        error: 'validation_failed',
        message: expect.stringContaining('contentHash is required (or content_hash)'),
      },
    });
    const stale = await callTool(session.client, 'memory_update', {
      id: first.id,
      content_hash: first.contentHash,
      body: 'lost\n',
    });
    expect(stale).toMatchObject({ isError: true, body: { error: 'content_hash_mismatch' } });
  });

  it("memory_rename takes the seed's rename(id, newTitle) and new_title; dryRun and dry_run", async () => {
    const entry = await call<Entry>('memory_capture', { title: 'Old name', body: 'x\n' });
    const plan = await call<{ dry_run: boolean }>('memory_rename', {
      id: entry.id,
      newTitle: 'Seed name',
      dryRun: true,
    });
    expect(plan.dry_run).toBe(true);
    expect(await call('memory_rename', { id: entry.id, newTitle: 'Seed name' })).toMatchObject({ title: 'Seed name' });
    expect(await call('memory_rename', { id: entry.id, new_title: 'Snake name', dry_run: false })).toMatchObject({
      title: 'Snake name',
    });
  });

  it('an argument neither spelling names is refused, with the closest real one', async () => {
    const entry = await call<Entry>('memory_capture', { title: 'Typos', body: 'x\n' });
    const typo = await callTool(session.client, 'memory_update', {
      id: entry.id,
      contentHsh: entry.contentHash,
      body: 'y\n',
    });
    expect(typo).toMatchObject({
      isError: true,
      body: { error: 'validation_failed', field: 'contentHsh', suggestion: 'contentHash' },
    });
    const rename = await callTool(session.client, 'memory_rename', { id: entry.id, new_titel: 'x' });
    expect(rename).toMatchObject({ isError: true, body: { error: 'validation_failed', suggestion: 'new_title' } });
    const link = await callTool(session.client, 'memory_replace_link', { oldID: 'id__Ab3xYz', newId: 'id__Axm001' });
    expect(link).toMatchObject({ isError: true, body: { error: 'validation_failed', field: 'oldID' } });
    // Near no real name (a client's timeout): set aside with a notice, as every profile does (decision 003).
    const unknown = await callTool(session.client, 'memory_update', {
      id: entry.id,
      contentHash: entry.contentHash,
      body: 'z\n',
      timeout: 30,
    });
    expect(unknown).toMatchObject({
      isError: false,
      body: { notices: [expect.stringMatching(/^Unknown argument "timeout" ignored/)] },
    });
  });
});

describe('the CLI inside a memory folder', () => {
  it('`notekernel call` run in the folder serves it, though another vault is registered as current; memory_doctor is ok beside a README', async () => {
    const home = await tempDir('nk-e2e-memory-cli-');
    const env = { NOTEKERNEL_CONFIG_DIR: path.join(home, 'registry') };
    expect((await runCli(['create', 'work', 'Work', path.join(home, 'flint')], { env })).code).toBe(0);
    expect((await runCli(['switch', 'work'], { env })).code).toBe(0);
    const listed = await runCli(['call', 'memory_list', '{"status": "all"}', '--json'], { env, cwd: root });
    expect(listed.code, listed.stderr).toBe(0);
    expect((JSON.parse(listed.stdout) as Array<{ id: string }>).map((e) => e.id)).toEqual(
      expect.arrayContaining(['id__Ab3xYz', 'id__Kf9mNp', 'id__Axm001']),
    );
    const doctor = await runCli(['call', 'memory_doctor', '--json'], { env, cwd: root });
    expect(doctor.code, doctor.stderr).toBe(0);
    expect(JSON.parse(doctor.stdout)).toMatchObject({ ok: true, notEntries: [], ignored: [{ path: 'README.md' }] });
    // Asked for another profile, or run elsewhere, the registry's current vault answers as before.
    const flint = await runCli(['call', 'list_note_types', '--json', '--profile', 'flint'], { env, cwd: root });
    expect(flint.code, flint.stderr).toBe(0);
    const elsewhere = await runCli(['call', 'memory_list', '--json'], { env, cwd: home });
    expect(elsewhere.code).not.toBe(0);
    await removeDir(home);
  });

  it('a stray markdown file without an id still makes memory_doctor not ok', async () => {
    write(root, 'orgs/axiom/README.md', '# Axiom\n');
    write(root, 'scratch.md', 'no id\n');
    const doctor = await call<{ ok: boolean; notEntries: Array<{ path: string }>; ignored: Array<{ path: string }> }>(
      'memory_doctor',
    );
    expect(doctor.notEntries.map((e) => e.path)).toEqual(['scratch.md']);
    expect(doctor.ignored.map((e) => e.path)).toEqual(['README.md', 'orgs/axiom/README.md']);
    expect(doctor.ok).toBe(false);
  });
});
