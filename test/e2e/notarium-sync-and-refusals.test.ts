/**
 * Issue 13 end to end, continued from notarium.test.ts: the built `notekernel serve --profile
 * notarium` over MCP stdio against a fake Simperium. Another device's note appears after
 * `manage sync` and its deletion removes it; bad input is refused naming the field with nothing
 * sent; faults (expired token, 429 / 503 bursts, a dropped connection, a timeout) lose and
 * duplicate nothing; reset_cache and start-up.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeSimperium, type FakeSimperium } from '../support/fake-simperium/index.js';
import { callTool, connectStdio, type StdioSession } from '../support/mcp.js';
import { envFor } from '../support/simplenote-subject.js';
import { removeDir, tempDir } from '../support/temp.js';
import { type ListOutput, type NoteData, notariumHelpers, startNotarium } from './notarium/harness.js';

let fake: FakeSimperium;
let cacheDir: string;
let session: StdioSession;
let env: Record<string, string>;
const { call, refused, writes, deviceNote, onServer, allIds } = notariumHelpers(() => ({ fake, session }));

beforeAll(async () => {
  ({ fake, cacheDir, session, env } = await startNotarium());
  // A list waits for the start-up sync: a note another device writes later is news to the cache.
  await call('list', { limit: 1 });
}, 60_000);

afterAll(async () => {
  await session?.close();
  await fake?.stop();
  if (cacheDir) await removeDir(cacheDir);
});

describe('notarium over MCP stdio against a fake Simperium', () => {
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
