/** The fake Simperium server's rules that python3-simplenote does not exercise. */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startFakeSimperium, type FakeSimperium } from '../../support/fake-simperium/index.js';

const NOTE = {
  content: 'a\nb',
  tags: [],
  systemTags: [],
  creationDate: 1700000000.5,
  modificationDate: 1700000000.5,
  deleted: false,
  shareURL: '',
  publishURL: '',
};

describe('fake Simperium server', () => {
  let fake: FakeSimperium;
  let token: string;
  const data = (path: string, init: RequestInit = {}) =>
    fetch(`${fake.url}/1/${fake.appId}/note${path}`, {
      ...init,
      headers: { 'X-Simperium-Token': token, ...(init.headers as Record<string, string>) },
    });
  const post = (path: string, body: unknown) => data(path, { method: 'POST', body: JSON.stringify(body) });

  beforeAll(async () => {
    fake = await startFakeSimperium();
  });
  afterAll(() => fake.stop());
  afterEach(() => void vi.useRealTimers());
  beforeEach(async () => {
    const res = await fetch(`${fake.url}/1/${fake.appId}/authorize/`, {
      method: 'POST',
      headers: { 'X-Simperium-API-Key': fake.apiKey, 'Content-Type': 'text/plain' },
      body: JSON.stringify({ username: 'user@example.com', password: 'secret-password' }),
    });
    token = ((await res.json()) as { access_token: string }).access_token;
  });

  it('answers a bad login with plain-text 401 and an unknown token with 401', async () => {
    const res = await fetch(`${fake.url}/1/${fake.appId}/authorize/`, {
      method: 'POST',
      headers: { 'X-Simperium-API-Key': fake.apiKey },
      body: '{"username":"user@example.com","password":"no"}',
    });
    expect([res.status, await res.text()]).toEqual([401, 'invalid login']);
    fake.revokeTokens();
    expect((await data('/index')).status).toBe(401);
  });

  it('refuses an incomplete new note (400), merges, replaces, and answers an empty change with 412', async () => {
    expect((await post('/i/partial', { content: 'only content' })).status).toBe(400);
    const created = await post('/i/n1?response=1', NOTE);
    expect([created.status, created.headers.get('x-simperium-version')]).toEqual([200, '1']);
    const merged = await post('/i/n1?response=1', { content: 'changed' });
    expect(await merged.json()).toMatchObject({ content: 'changed', tags: [] });
    expect((await post('/i/n1', { content: 'changed' })).status).toBe(412);
    const replaced = await post('/i/n1?replace=1&response=1', { ...NOTE, content: 'replaced' });
    expect([
      replaced.headers.get('x-simperium-version'),
      ((await replaced.json()) as { content: string }).content,
    ]).toEqual(['3', 'replaced']);
    expect((await post('/i/n1/v/9', NOTE)).status).toBe(404);
  });

  it('a stale base version only overwrites the fields its writer changed', async () => {
    await post('/i/n2', NOTE);
    await post('/i/n2', { tags: ['from-device-b'] });
    const stale = await post('/i/n2/v/1?response=1', { ...NOTE, content: 'from device a' });
    expect(await stale.json()).toMatchObject({ content: 'from device a', tags: ['from-device-b'] });
  });

  it('replays a retried ccid instead of applying it twice', async () => {
    await post('/i/n3', NOTE);
    const first = await post('/i/n3?ccid=abc', { content: 'once' });
    await post('/i/n3', { content: 'someone else' });
    const retry = await post('/i/n3?ccid=abc', { content: 'once' });
    expect(retry.headers.get('x-simperium-version')).toBe(first.headers.get('x-simperium-version'));
    expect(fake.bucket().get('n3')?.data.content).toBe('someone else');
  });

  it('deletes only trashed notes; trashed notes stay listed; since and limit filter', async () => {
    const before = ((await (await data('/index')).json()) as { current: string }).current;
    await post('/i/n4', NOTE);
    expect((await data('/i/n4', { method: 'DELETE' })).status).toBe(400);
    await post('/i/n4', { deleted: true });
    const since = (await (await data(`/index?since=${before}&limit=0&limit=1`)).json()) as {
      index: Array<{ id: string; d?: unknown }>;
      mark?: string;
    };
    expect(since.index.map((e) => e.id)).toEqual(['n4']);
    expect(since.index[0]).not.toHaveProperty('d');
    expect(since.mark).toBeUndefined();
    expect((await data('/i/n4', { method: 'DELETE' })).status).toBe(200);
    expect((await data('/i/n4')).status).toBe(404);
  });

  it('pages 100 by default, clamps a limit to 1000, and lists trashed notes', async () => {
    for (let i = 0; i < 1005; i += 1) fake.bucket().post(`bulk${i}`, { ...NOTE, deleted: i % 2 === 0 });
    type Page = { index: unknown[]; mark?: string; current: string };
    const byDefault = (await (await data('/index')).json()) as Page;
    expect(byDefault.index).toHaveLength(100);
    const clamped = (await (await data('/index?limit=5000')).json()) as Page;
    expect(clamped.index).toHaveLength(1000);
    const rest = (await (await data(`/index?limit=5000&mark=${clamped.mark}`)).json()) as Page;
    expect(clamped.index.length + rest.index.length).toBe(fake.bucket().size);
    expect(rest.mark).toBeUndefined();
    expect(rest.current).toBe(clamped.current);
  });

  it('injects 429 with Retry-After, 503, delays and dropped connections', async () => {
    fake.faults.next(1, { kind: 'status', status: 429, retryAfter: '2' });
    fake.faults.next(1, { kind: 'status', status: 503 });
    const throttled = await data('/index');
    expect([throttled.status, throttled.headers.get('retry-after')]).toEqual([429, '2']);
    expect((await data('/index')).status).toBe(503);
    fake.faults.next(1, { kind: 'drop' }, { path: /\/index$/ });
    await expect(data('/index').then((r) => r.json())).rejects.toThrow();
    // The delay is the server's timer: on the fake clock the answer is held until it has run.
    const received = fake.requests.length;
    fake.faults.next(1, { kind: 'delay', ms: 50 });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let answered = false;
    const delayed = data('/index').finally(() => (answered = true));
    // Recorded just before the answer is held: real I/O, polled. (Under fake timers vi.waitFor moves
    // the clock by its interval at every check: interval 0 leaves the delay's timer where it is.)
    await vi.waitFor(() => expect(fake.requests.length).toBe(received + 1), { interval: 0 });
    await vi.advanceTimersByTimeAsync(49);
    expect(answered).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    vi.useRealTimers();
    expect((await delayed).status).toBe(200);
  });
});
