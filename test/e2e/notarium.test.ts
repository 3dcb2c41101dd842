/**
 * Issue 13 end to end: the built `notekernel serve --profile notarium` over MCP stdio (the SDK's
 * own client), talking to a fake Simperium on 127.0.0.1, by seed 003's tool names and shapes:
 * create → list (FTS, tag:, dates, paging) → get a line range → save a text_patch → trash →
 * untrash → delete_permanently; another device's note appears after `manage sync` and its
 * deletion removes it; bad input is refused naming the field with nothing sent; faults
 * (expired token, 429 / 503 bursts, a dropped connection, a timeout) lose and duplicate nothing.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeSimperium, type FakeSimperium } from '../support/fake-simperium/index.js';
import { callTool, connectStdio, type StdioSession } from '../support/mcp.js';
import { envFor } from '../support/simplenote-subject.js';
import { removeDir, tempDir } from '../support/temp.js';

interface ListItem {
  type: 'text';
  uuid: string;
  text: string;
  local_version: number;
  tags: string[];
  modified_at: number;
  trash: boolean;
}
interface ListOutput {
  content: ListItem[];
  next_page?: number;
}
interface NoteData {
  id: string;
  local_version: number;
  server_version?: number;
  text: string;
  tags: string[];
  modified_at: number;
  created_at?: number;
  trash: boolean;
  text_is_partial?: boolean;
  text_total_lines?: number;
}

const DAY = 86_400;
const JAN_2024 = Date.UTC(2024, 0, 1) / 1000;

let fake: FakeSimperium;
let cacheDir: string;
let session: StdioSession;
let env: Record<string, string>;

async function call<T>(name: string, args: Record<string, unknown> = {}): Promise<T> {
  const answer = await callTool(session.client, name, args);
  if (answer.isError) throw new Error(`${name} failed: ${JSON.stringify(answer.body)}`);
  return answer.body as T;
}

async function refused(
  name: string,
  args: Record<string, unknown>,
): Promise<{ error: string; message: string; field?: string; hint?: string }> {
  const answer = await callTool(session.client, name, args);
  expect(answer.isError, `${name} ${JSON.stringify(args).slice(0, 200)} should fail`).toBe(true);
  return answer.body as { error: string; message: string; field?: string; hint?: string };
}

/** Writes the fake received (POST / DELETE on the note bucket). */
function writes(): number {
  return fake.requests.filter((r) => r.method !== 'GET' && r.path.includes('/note/')).length;
}

function deviceNote(id: string, content: string, tags: string[], modified: number): void {
  fake.bucket().post(id, {
    content,
    tags,
    systemTags: [],
    creationDate: modified - DAY,
    modificationDate: modified,
    deleted: false,
    shareURL: '',
    publishURL: '',
  });
}

function onServer(text: string): string[] {
  return fake
    .bucket()
    .index()
    .filter((entry) => fake.bucket().get(entry.id)?.data.content === text)
    .map((entry) => entry.id);
}

async function allIds(extra: Record<string, unknown> = {}): Promise<string[]> {
  const ids: string[] = [];
  for (let page: number | undefined = 1; page !== undefined; ) {
    const out: ListOutput = await call<ListOutput>('list', { limit: 100, page, ...extra });
    ids.push(...out.content.map((item) => item.uuid));
    page = out.next_page;
  }
  return ids;
}

beforeAll(async () => {
  fake = await startFakeSimperium();
  // 30 notes written earlier on another device: one a day through January 2024.
  for (let i = 0; i < 30; i += 1)
    deviceNote(
      `dev${i}`,
      `Garden log ${i}\nwatered the ${i % 2 ? 'roses' : 'tomatoes'} today`,
      i % 3 === 0 ? ['garden', 'daily'] : ['garden'],
      JAN_2024 + i * DAY + 3600,
    );
  cacheDir = await tempDir('nk-e2e-notarium-');
  env = { ...(envFor(fake) as Record<string, string>), API_TIMEOUT_SECONDS: '5' };
  session = await connectStdio(['serve', '--profile', 'notarium', '--vault', cacheDir], env);
}, 60_000);

afterAll(async () => {
  await session?.close();
  await fake?.stop();
  await removeDir(cacheDir);
});

describe('notarium over MCP stdio against a fake Simperium', () => {
  let id = '';
  let version = 0;

  it("serves the seed's four tools", async () => {
    const { tools } = await session.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['get', 'list', 'manage', 'save']);
    const manage = tools.find((t) => t.name === 'manage')!;
    expect(JSON.stringify(manage.inputSchema)).toContain('delete_permanently');
  });

  it('save creates a note on Simplenote; list finds it by words, by tag: and by date', async () => {
    const created = await call<NoteData>('save', {
      text: 'Kestrel launch plan\nline two\nline three\nline four',
      tags: ['birds', 'work'],
    });
    expect(created).toMatchObject({
      local_version: 1,
      server_version: 1,
      text: 'Kestrel launch plan\nline two\nline three\nline four',
      tags: ['birds', 'work'],
      trash: false,
    });
    id = created.id;
    version = created.local_version;
    expect(fake.bucket().get(id)?.data).toMatchObject({
      content: created.text,
      tags: ['birds', 'work'],
      deleted: false,
    });

    const byWords = await call<ListOutput>('list', { query: 'kestrel plan' });
    expect(byWords.content[0]).toEqual({
      type: 'text',
      uuid: id,
      text: 'Kestrel launch plan',
      local_version: 1,
      tags: ['birds', 'work'],
      modified_at: created.modified_at,
      trash: false,
    });
    expect((await call<ListOutput>('list', { query: 'tag:birds' })).content.map((i) => i.uuid)).toEqual([id]);
    expect((await call<ListOutput>('list', { query: 'launch tag:nope' })).content).toEqual([]);
    const roses = await call<ListOutput>('list', { query: 'roses', limit: 100 });
    expect(roses.content).toHaveLength(15);
    expect(roses.content.every((item) => item.text.startsWith('Garden log'))).toBe(true);

    const january = await call<ListOutput>('list', { query: 'after:2024-01-10 before:2024-01-12', limit: 100 });
    expect(january.content.map((i) => i.uuid)).toEqual(['dev11', 'dev10', 'dev9']); // Jan 10–12, newest first
    const args = await call<ListOutput>('list', {
      date_after: '2024-01-10',
      date_before: '2024-01-11',
      tags: ['daily'],
      sort_by: 'created_at',
      sort_order: 'ASC',
    });
    expect(args.content.map((i) => i.uuid)).toEqual(['dev9']);
    const daily = await call<ListOutput>('list', { tags: ['daily'], sort_order: 'ASC', limit: 100 });
    expect(daily.content.map((i) => i.uuid)).toEqual([
      'dev0',
      'dev3',
      'dev6',
      'dev9',
      'dev12',
      'dev15',
      'dev18',
      'dev21',
      'dev24',
      'dev27',
    ]);
  });

  it('pages: next_page until the last page, every note once', async () => {
    const first = await call<ListOutput>('list', { limit: 7 });
    expect(first.content).toHaveLength(7);
    expect(first.next_page).toBe(2);
    expect(first.content[0]!.uuid).toBe(id); // most recently modified first
    const pages: string[] = [];
    for (let page: number | undefined = 1; page !== undefined; ) {
      const out: ListOutput = await call<ListOutput>('list', { limit: 7, page });
      pages.push(...out.content.map((i) => i.uuid));
      page = out.next_page;
    }
    expect(pages).toHaveLength(31);
    expect(new Set(pages).size).toBe(31);
    expect((await call<ListOutput>('list', { limit: 7, page: 5 })).next_page).toBeUndefined();
  });

  it('get returns a line range with text_is_partial and text_total_lines', async () => {
    const part = await call<NoteData>('get', { id, range_line_start: 2, range_line_count: 2 });
    expect(part).toMatchObject({
      id,
      local_version: 1,
      text: 'line two\nline three',
      text_is_partial: true,
      text_total_lines: 4,
      range_line_start: 2,
      range_line_count: 2,
    });
    const tail = await call<NoteData>('get', { id, range_line_start: 3, range_line_count: 99 });
    expect(tail).toMatchObject({ text: 'line three\nline four', text_is_partial: true, range_line_count: 2 });
    expect(await call<NoteData>('get', { id })).toMatchObject({ text_is_partial: false, text_total_lines: 4 });
    // local_version: the same version answers plainly; an older one is told the note moved on.
    expect((await call<NoteData & { notices?: string[] }>('get', { id, local_version: 1 })).notices).toBeUndefined();
    const moved = await call<NoteData & { notices?: string[] }>('get', { id, local_version: 0 });
    expect(moved.notices).toEqual([
      'local_version 0: the note is at version 1 now (changed since that version was read); this is version 1.',
    ]);
  });

  it("save applies a text_patch in the seed's order against the text of that local_version", async () => {
    const saved = await call<NoteData>('save', {
      id,
      local_version: version,
      text_patch: [
        { operation: 'addition', line_number: 2, value: 'inserted' },
        { operation: 'deletion', line_number: 4 },
        { operation: 'modification', line_number: 2, value: 'LINE TWO' },
      ],
    });
    expect(saved.text).toBe('Kestrel launch plan\ninserted\nLINE TWO\nline three');
    expect(saved.local_version).toBe(2);
    expect(fake.bucket().get(id)).toMatchObject({ version: 2, data: { content: saved.text, tags: ['birds', 'work'] } });
    version = saved.local_version;
  });

  it('a stale local_version is a typed conflict with a hint; nothing is written', async () => {
    const before = writes();
    const stale = await refused('save', { id, local_version: 1, text: 'Kestrel\nclobber' });
    expect(stale).toMatchObject({ error: 'conflict', field: 'local_version', current_local_version: 2 });
    expect(stale.hint).toMatch(/get/);
    // Another device changes the note: our version is stale now too.
    fake
      .bucket()
      .post(id, { content: 'Kestrel launch plan\nedited on the phone', modificationDate: Date.now() / 1000 });
    expect(await refused('manage', { action: 'trash', id, local_version: version })).toMatchObject({
      error: 'conflict',
      field: 'local_version',
      current_local_version: 3,
    });
    expect(writes()).toBe(before);
    version = (await call<NoteData>('get', { id })).local_version;
    expect(version).toBe(3);
  });

  it('trash → untrash → delete_permanently', async () => {
    const trashed = await call<{ id: string; status: string; new_local_version: number }>('manage', {
      action: 'trash',
      id,
      local_version: version,
    });
    expect(trashed).toMatchObject({ id, status: 'trashed', new_local_version: 4, new_server_version: 4 });
    expect(fake.bucket().get(id)?.data.deleted).toBe(true);
    expect(await allIds()).not.toContain(id);
    expect(await allIds({ trash_status: 1 })).toEqual([id]);
    // Seed 003 §9: trash: in the query is a filter, not words (the trash_status argument wins).
    expect(await allIds({ query: 'trash:1' })).toEqual([id]);
    expect(await allIds({ query: 'kestrel trash:yes' })).toEqual([id]);
    expect(await allIds({ query: 'trash:any' })).toContain(id);
    expect(await allIds({ query: 'trash:0' })).not.toContain(id);
    expect(await allIds({ query: 'trash:1', trash_status: 0 })).not.toContain(id);
    expect(await refused('list', { query: 'trash:maybe' })).toMatchObject({
      error: 'validation_failed',
      field: 'query',
    });
    expect(await allIds({ trash_status: 2 })).toContain(id);
    const untrashed = await call<{ status: string; new_local_version: number }>('manage', {
      action: 'untrash',
      id,
      local_version: 4,
    });
    expect(untrashed).toMatchObject({ status: 'untrashed', new_local_version: 5 });
    expect(await allIds()).toContain(id);
    expect(await call('manage', { action: 'delete_permanently', id, local_version: 5 })).toEqual({
      id,
      status: 'deleted',
    });
    expect(fake.bucket().get(id)).toBeUndefined();
    expect(await allIds({ trash_status: 2 })).not.toContain(id);
    expect(await refused('get', { id })).toMatchObject({ error: 'not_found', field: 'id' });
  });

  it('a note written on another device appears after manage sync; deleted there, it disappears; get_stats reports the syncs', async () => {
    deviceNote('phone1', 'Heron sighting\nby the river', ['birds'], Date.now() / 1000);
    expect((await call<ListOutput>('list', { query: 'heron' })).content).toEqual([]);
    const before = await call<{ cursor: string; syncs: number }>('manage', { action: 'get_stats' });
    const report = await call<{ full: boolean; indexed: number; removed: number }>('manage', { action: 'sync' });
    expect(report).toMatchObject({ full: false, indexed: 1, removed: 0 });
    const index = fake.requests.filter((r) => r.path.endsWith('/note/index') && r.query.get('since'));
    expect(index.at(-1)?.query.get('since')).toBe(before.cursor); // resumed from the stored cursor
    expect((await call<ListOutput>('list', { query: 'heron' })).content.map((i) => i.uuid)).toEqual(['phone1']);
    fake.bucket().delete('phone1');
    expect(await call('manage', { action: 'sync' })).toMatchObject({ removed: 1 });
    expect((await call<ListOutput>('list', { query: 'heron' })).content).toEqual([]);
    const stats = await call<{
      notes: number;
      trashed: number;
      cursor: string;
      syncs: number;
      lastSync: { removed: number };
      lastSyncAt: string;
      cacheBytes: number;
    }>('manage', { action: 'get_stats' });
    expect(stats).toMatchObject({ notes: 30, trashed: 0, syncs: before.syncs + 2, lastSync: { removed: 1 } });
    expect(stats.cursor).not.toBe(before.cursor);
    expect(Date.parse(stats.lastSyncAt)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('bad input names the field, sends nothing and leaves the cache as it was', async () => {
    const target = await call<NoteData>('get', { id: 'dev1' });
    const listed = await call<ListOutput>('list', { limit: 100, trash_status: 2 });
    const before = writes();
    const cases: Array<[string, Record<string, unknown>, string]> = [
      [
        'save',
        { id: 'dev1', local_version: target.local_version, text_patch: [{ operation: 'deletion', line_number: 9 }] },
        'text_patch.0.line_number',
      ],
      [
        'save',
        {
          id: 'dev1',
          local_version: target.local_version,
          text_patch: [{ operation: 'addition', line_number: 5, value: 'x' }],
        },
        'text_patch.0.line_number',
      ],
      // Below a deletion, "line 2" is one line in the text read and the next after the deletion.
      [
        'save',
        {
          id: 'dev1',
          local_version: target.local_version,
          text_patch: [
            { operation: 'deletion', line_number: 1 },
            { operation: 'modification', line_number: 2, value: 'x' },
          ],
        },
        'text_patch.1.line_number',
      ],
      ['save', { id: 'dev1', text: 'Garden log 1\nno version' }, 'local_version'],
      ['save', { id: 'no-such-note', local_version: 1, text: 'Ghost' }, 'id'],
      ['get', { id: 'no-such-note' }, 'id'],
      ['save', { text: '' }, 'text'],
      ['save', { text: '   \n  ' }, 'text'],
      ['save', { text: 'Tagged\nbody', tags: ['two words'] }, 'tags.0'],
      ['save', { id: 'dev1', local_version: target.local_version, tags: ['garden', 'bad tag'] }, 'tags.1'],
      // Above a note's 1 MiB cap, below the message limit of every transport (4 MiB, decision 028).
      ['save', { text: `Huge\n${'x'.repeat(2_000_000)}` }, 'text'],
      ['manage', { action: 'trash', id: 'dev1' }, 'local_version'],
    ];
    for (const [tool, args, field] of cases) {
      const body = await refused(tool, args);
      expect(body.field, `${tool} ${JSON.stringify(args).slice(0, 120)}: ${body.message}`).toBe(field);
      expect(body.message).toContain(field);
    }
    // 10 MB: refused by the one message limit before any tool runs; the session goes on.
    await expect(
      session.client.callTool({ name: 'save', arguments: { text: `Huge\n${'x'.repeat(10_000_000)}` } }),
    ).rejects.toThrow(/above the size limit of 4194304 bytes/);
    expect(writes()).toBe(before);
    expect(await call<ListOutput>('list', { limit: 100, trash_status: 2 })).toEqual(listed);
    expect(fake.bucket().get('dev1')?.version).toBe(target.local_version);
  });

  it('faults: an expired token, 429 and 503 bursts, a connection dropped after the write, a timeout — nothing lost, nothing doubled', async () => {
    const confirmed: Array<{ id: string; text: string }> = [];
    const save = async (text: string) => {
      const note = await call<NoteData>('save', { text, tags: ['faults'] });
      confirmed.push({ id: note.id, text });
      return note;
    };
    const logins = () => fake.requests.filter((r) => r.path.endsWith('/authorize/')).length;
    const loginsBefore = logins();
    fake.revokeTokens();
    await save('After expiry\nthe token was revoked');
    expect(logins()).toBe(loginsBefore + 1);

    fake.faults.next(3, { kind: 'status', status: 429, retryAfter: '0' }, { method: 'POST' });
    await save('Through 429s\nthree refusals first');
    fake.faults.next(2, { kind: 'status', status: 503 }, { method: 'POST' });
    await save('Through 503s\ntwo outages first');
    fake.faults.next(1, { kind: 'drop' }, { method: 'POST' });
    await save('Through a drop\nthe answer was cut after the write landed');
    fake.faults.next(1, { kind: 'delay', ms: 6500 }, { method: 'POST' });
    await save('Through a timeout\nthe answer came too late');

    // A sync through a 503 burst and a page cut mid-body resumes from the stored cursor.
    deviceNote('phone2', 'Osprey nest\nseen from the bridge', ['birds'], Date.now() / 1000);
    const { cursor } = await call<{ cursor: string }>('manage', { action: 'get_stats' });
    fake.faults.next(2, { kind: 'status', status: 503 }, { path: /\/index$/ });
    fake.faults.next(1, { kind: 'drop' }, { path: /\/index$/, query: /since/ });
    expect(await call('manage', { action: 'sync' })).toMatchObject({ indexed: 1 });
    const sinces = fake.requests.filter((r) => r.path.endsWith('/note/index') && r.query.get('since')).slice(-4);
    expect(new Set(sinces.map((r) => r.query.get('since')))).toEqual(new Set([cursor]));

    for (const { id: noteId, text } of confirmed) {
      expect(onServer(text), text).toEqual([noteId]);
      expect(fake.bucket().get(noteId)?.version).toBe(1);
    }
    expect((await allIds({ tags: ['faults'] })).sort()).toEqual(confirmed.map((c) => c.id).sort());
    expect(await allIds({ query: 'osprey' })).toEqual(['phone2']);

    // A kill -9 loses at most the unsaved cache, never a confirmed write: a new server has them all.
    process.kill(session.pid()!, 'SIGKILL');
    await session.close().catch(() => undefined);
    session = await connectStdio(['serve', '--profile', 'notarium', '--vault', cacheDir], env);
    await call('manage', { action: 'sync' });
    expect((await allIds({ tags: ['faults'] })).sort()).toEqual(confirmed.map((c) => c.id).sort());
  }, 60_000);

  it('list finds a word in any of its forms (run finds "running")', async () => {
    const saved = await call<NoteData>('save', { text: 'Trail diary\nwent running past the connections at dawn' });
    for (const query of ['run', 'connection', 'runs']) {
      const listed = await call<ListOutput>('list', { query });
      expect(
        listed.content.map((item) => item.uuid),
        query,
      ).toContain(saved.id);
    }
  });

  it('refuses a 100,000-character id or tag as validation_failed naming the field, sending nothing', async () => {
    const huge = 'n'.repeat(100_000);
    const sent = fake.requests.length;
    for (const [tool, args, field] of [
      ['get', { id: huge }, 'id'],
      ['save', { id: huge, local_version: 1, text: 'x' }, 'id'],
      ['save', { text: 'Tagged\nbody', tags: [huge] }, 'tags.0'],
      ['manage', { action: 'trash', id: huge, local_version: 1 }, 'id'],
    ] as const) {
      const answer = await callTool(session.client, tool, args);
      expect(answer.isError).toBe(true);
      expect(answer.body).toMatchObject({
        error: 'validation_failed',
        message: expect.stringMatching(new RegExp(`${field.replace('.', '\\.')}: at most 255 characters`)),
      });
      expect((answer.body as { message: string }).message.length).toBeLessThan(1_000);
    }
    // The sync at start may still be talking to the service: none of its requests names the id.
    expect(fake.requests.slice(sent).filter((r) => r.path.includes('nnnnnnnnnn'))).toEqual([]);
  });

  it('reset_cache rebuilds the cache by a full sync', async () => {
    const before = (await allIds({ trash_status: 2 })).sort();
    const report = await call<{ full: boolean; scanned: number }>('manage', { action: 'reset_cache' });
    expect(report).toMatchObject({ full: true, scanned: before.length });
    expect((await allIds({ trash_status: 2 })).sort()).toEqual(before);
  });
});

describe('notarium start-up and config', () => {
  it('a cache file per account in --vault DIR', () => {
    expect(fs.readdirSync(cacheDir).filter((f) => /^notarium-cache-[0-9a-f]{16}\.sqlite3$/.test(f))).toHaveLength(1);
  });

  it('answers initialize before the first full sync of a large account is done', async () => {
    const big = await startFakeSimperium();
    for (let i = 0; i < 3000; i += 1)
      big.bucket().post(`b${i}`, {
        content: `Bulk ${i}\nbody`,
        tags: [],
        systemTags: [],
        creationDate: 1,
        modificationDate: 1,
        deleted: false,
        shareURL: '',
        publishURL: '',
      });
    big.faults.next(30, { kind: 'delay', ms: 100 }, { path: /\/index$/ });
    const dir = await tempDir('nk-e2e-notarium-big-');
    const started = Date.now();
    const slow = await connectStdio(['serve', '--profile', 'notarium', '--vault', dir], {
      ...(envFor(big) as Record<string, string>),
    });
    try {
      const connectedMs = Date.now() - started;
      const syncedIndexCalls = big.requests.filter((r) => r.path.endsWith('/index')).length;
      expect(syncedIndexCalls).toBeLessThan(30); // the 30 slow pages were not all fetched before initialize was answered
      expect(connectedMs).toBeLessThan(20_000);
      const all = await callTool(slow.client, 'list', { limit: 1 }); // waits for the sync
      expect(all.isError).toBe(false);
      const stats = (await callTool(slow.client, 'manage', { action: 'get_stats' })).body as { notes: number };
      expect(stats.notes).toBe(3000);
    } finally {
      await slow.close();
      await big.stop();
      await removeDir(dir);
    }
  }, 60_000);
});
