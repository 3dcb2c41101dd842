/**
 * Issue 31, notarium offline-first: the built `notekernel serve --profile notarium` over MCP
 * stdio (the SDK's client) against the fake Simperium on 127.0.0.1. After a sync, a restart
 * with Simperium down pages through the whole cache with `list`, `get` answers from the cache
 * with a notice saying how fresh it is, `save` fails clearly and changes nothing, and the
 * failing sync backs off (get_stats says so); with Simperium hanging every call answers within
 * API_TIMEOUT_SECONDS + 1 s; a restart syncs at start even with a cache; refused credentials are
 * said at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeSimperium, type FakeSimperium } from '../support/fake-simperium/index.js';
import { callTool, connectStdio, type StdioSession, type ToolAnswer } from '../support/mcp.js';
import { envFor } from '../support/simplenote-subject.js';
import { removeDir, tempDir } from '../support/temp.js';

interface ListOutput {
  content: Array<{ uuid: string; text: string; local_version: number }>;
  next_page?: number;
}
interface NoteData {
  id: string;
  local_version: number;
  text: string;
  notices?: string[];
}
interface Stats {
  notes: number;
  syncs: number;
  failedSyncs: number;
  lastError?: string;
  lastSyncAt?: string;
  sync: {
    state: string;
    intervalSeconds: number;
    consecutiveFailures: number;
    nextSyncAt?: string;
    credentialsRefused?: string;
  };
}

const TIMEOUT_SECONDS = 10;
const NOTES = 45;
let fake: FakeSimperium;
let dir: string;
let env: Record<string, string>;
let session: StdioSession | undefined;

function deviceNote(id: string, content: string): void {
  const now = Date.now() / 1000;
  fake.bucket().post(id, {
    content,
    tags: ['offline'],
    systemTags: [],
    creationDate: now,
    modificationDate: now,
    deleted: false,
    shareURL: '',
    publishURL: '',
  });
}

async function serve(extra: Record<string, string> = {}): Promise<StdioSession> {
  session = await connectStdio(['serve', '--profile', 'notarium', '--vault', dir], { ...env, ...extra });
  return session;
}

async function closeSession(): Promise<void> {
  await session?.close();
  session = undefined;
}

/** A tool call and how long it took. */
async function timed(name: string, args: Record<string, unknown> = {}): Promise<ToolAnswer & { ms: number }> {
  const started = Date.now();
  const answer = await callTool(session!.client, name, args);
  return { ...answer, ms: Date.now() - started };
}

async function ok<T>(name: string, args: Record<string, unknown> = {}): Promise<T> {
  const answer = await callTool(session!.client, name, args);
  if (answer.isError) throw new Error(`${name} failed: ${JSON.stringify(answer.body)}`);
  return answer.body as T;
}

async function everyPage(limit: number): Promise<{ ids: string[]; slowestMs: number }> {
  const ids: string[] = [];
  let slowestMs = 0;
  for (let page: number | undefined = 1; page !== undefined; ) {
    const answer = await timed('list', { limit, page });
    expect(answer.isError, JSON.stringify(answer.body)).toBe(false);
    const out = answer.body as ListOutput;
    ids.push(...out.content.map((item) => item.uuid));
    slowestMs = Math.max(slowestMs, answer.ms);
    page = out.next_page;
  }
  return { ids, slowestMs };
}

async function until<T>(probe: () => Promise<T | undefined>, ms: number): Promise<T | undefined> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined || Date.now() > end) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

beforeAll(async () => {
  fake = await startFakeSimperium();
  for (let i = 0; i < NOTES; i += 1)
    deviceNote(`off${i}`, i === 7 ? `\n\nBlank first line ${i}\nbody` : `Offline note ${i}\nbody ${i}`);
  dir = await tempDir('nk-e2e-notarium-offline-');
  env = { ...(envFor(fake) as Record<string, string>), API_TIMEOUT_SECONDS: String(TIMEOUT_SECONDS) };
  await serve();
  expect((await everyPage(100)).ids).toHaveLength(NOTES); // filled
  await closeSession();
}, 60_000);

afterAll(async () => {
  await closeSession();
  await fake?.stop();
  await removeDir(dir);
});

describe('notarium offline-first', () => {
  it('restarted with Simperium down: list pages through the whole cache, get answers from it with a notice, save fails clearly and changes nothing, the sync backs off', async () => {
    fake.faults.next(100_000, { kind: 'reset' }); // every connection is cut: the service is down
    await serve();
    const { ids, slowestMs } = await everyPage(10);
    expect(new Set(ids).size).toBe(NOTES);
    expect(slowestMs).toBeLessThan(TIMEOUT_SECONDS * 1000);

    const read = await timed('get', { id: 'off3' });
    expect(read.isError, JSON.stringify(read.body)).toBe(false);
    const note = read.body as NoteData;
    expect(note).toMatchObject({ id: 'off3', local_version: 1, text: 'Offline note 3\nbody 3' });
    expect(note.notices?.[0]).toMatch(/cached copy at version 1, as fresh as the last sync, \d{4}-\d\d-\d\dT/);
    expect(read.ms).toBeLessThan(TIMEOUT_SECONDS * 1000); // from the cache, not after the request's timeout

    const writesBefore = fake.requests.length;
    const save = await timed('save', { id: 'off3', local_version: 1, text: 'Offline note 3\nchanged while down' });
    expect(save.isError).toBe(true);
    expect(save.body).toMatchObject({
      error: 'backend_unavailable',
      message: expect.stringMatching(/unreachable|failed after/),
    });
    expect(save.ms).toBeLessThan(TIMEOUT_SECONDS * 1000);
    const created = await timed('save', { text: 'Written while down\nnever stored' });
    expect(created.isError).toBe(true);
    expect(fake.requests.slice(writesBefore).filter((r) => r.method === 'POST' && r.status !== 0)).toEqual([]);
    expect(fake.bucket().get('off3')).toMatchObject({ version: 1, data: { content: 'Offline note 3\nbody 3' } });
    expect((await ok<NoteData>('get', { id: 'off3' })).text).toBe('Offline note 3\nbody 3');

    const stats = await until(async () => {
      const s = await ok<Stats>('manage', { action: 'get_stats' });
      return s.sync.consecutiveFailures > 0 ? s : undefined;
    }, 20_000);
    expect(stats?.sync).toMatchObject({ state: 'backing-off', intervalSeconds: 300, consecutiveFailures: 1 });
    // The next cycle waits twice the interval after one failure.
    expect(Date.parse(stats!.sync.nextSyncAt!) - Date.now()).toBeGreaterThan(500_000);
    expect(stats?.lastError).toBeTruthy();
    // The fault is told in every answer while it lasts, after the answer's own notices.
    const told = await ok<NoteData>('get', { id: 'off3' });
    expect(told.notices?.[0]).toMatch(/cached copy/);
    expect(told.notices?.slice(1).join(' ')).toMatch(/^simplenote sync: .*retried with backoff/);
    expect(
      await until(
        async () => (session!.stderr().includes('simplenote sync failed; backing off') ? true : undefined),
        5_000,
      ),
    ).toBe(true);
    await closeSession();
    fake.faults.clear();
  }, 90_000);

  it(`with Simperium hanging, every call answers within API_TIMEOUT_SECONDS + 1 s (${TIMEOUT_SECONDS + 1} s)`, async () => {
    fake.faults.next(100_000, { kind: 'hang' });
    await serve();
    const calls: Array<[string, Record<string, unknown>]> = [
      ['list', { limit: 20 }],
      ['get', { id: 'never-cached' }],
      ['get', { id: 'off5' }],
      ['list', { query: 'offline note', limit: 5, page: 2 }],
      ['save', { id: 'off5', local_version: 1, text: 'Offline note 5\nedited while hanging' }],
      ['save', { text: 'New while hanging\nbody' }],
      ['manage', { action: 'trash', id: 'off6', local_version: 1 }],
      ['manage', { action: 'sync' }],
      ['manage', { action: 'get_stats' }],
      ['get', { id: 'off7', range_line_start: 3 }],
    ];
    const times: string[] = [];
    for (const [name, args] of calls) {
      const answer = await timed(name, args);
      times.push(`${name} ${answer.ms} ms${answer.isError ? ` (${(answer.body as { error: string }).error})` : ''}`);
      expect(answer.ms, `${name} ${JSON.stringify(args)}`).toBeLessThan((TIMEOUT_SECONDS + 1) * 1000);
      if (name === 'list' || (name === 'manage' && args.action === 'get_stats')) expect(answer.isError).toBe(false);
    }
    console.log(`hanging Simperium, API_TIMEOUT_SECONDS=${TIMEOUT_SECONDS}: ${times.join(', ')}`);
    expect(fake.bucket().get('off5')?.version).toBe(1);
    expect(fake.bucket().get('off6')?.data.deleted).toBe(false);
    await closeSession();
    fake.faults.clear();
  }, 120_000);

  it('a restart syncs at start even with a cache: a note written elsewhere appears without manage sync', async () => {
    deviceNote('fresh1', 'Written on the phone\nwhile the server was stopped');
    await serve();
    const found = await until(async () => {
      const out = await ok<ListOutput>('list', { query: 'phone stopped' });
      return out.content.some((item) => item.uuid === 'fresh1') ? out : undefined;
    }, 15_000);
    expect(found, 'the note written elsewhere was synced at start').toBeDefined();
    const stats = await ok<Stats>('manage', { action: 'get_stats' });
    expect(stats.sync).toMatchObject({ state: 'ok', consecutiveFailures: 0 });
    await closeSession();
  }, 60_000);

  it('refused credentials are said at once (log and get_stats); the cache still answers', async () => {
    await serve({ SIMPLENOTE_PASSWORD: 'not-the-password' });
    const stats = await until(async () => {
      const s = await ok<Stats>('manage', { action: 'get_stats' });
      return s.sync.credentialsRefused ? s : undefined;
    }, 15_000);
    expect(stats?.sync.credentialsRefused).toMatch(/login failed/);
    // The log line may reach the pipe a moment after get_stats answers.
    expect(
      await until(
        async () => (session!.stderr().includes('Simplenote refused the credentials') ? true : undefined),
        5_000,
      ),
    ).toBe(true);
    expect(session!.stderr()).not.toContain('not-the-password');
    expect((await everyPage(50)).ids.length).toBeGreaterThanOrEqual(NOTES);
    const read = await ok<NoteData>('get', { id: 'off1' });
    expect(read.notices?.[0]).toMatch(/cached copy/);
    await closeSession();
  }, 60_000);
});
