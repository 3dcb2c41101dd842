/** The Simperium client against the fake server: paging, versions, re-auth, retries, secrecy. */
import { inspect } from 'node:util';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { simperiumConfigFromEnv, type SimperiumConfig } from '../../../backends/simplenote/client/config.js';
import { SimperiumClient } from '../../../backends/simplenote/client/simperium-client.js';
import { retryAfterMs } from '../../../backends/simplenote/client/transport.js';
import { startFakeSimperium, type FakeSimperium } from '../../support/fake-simperium/index.js';

const PASSWORD = 'secret-password';
const NOTE = {
  content: 'Title\nbody',
  tags: [],
  systemTags: [],
  creationDate: 1700000000,
  modificationDate: 1700000000,
  deleted: false,
  shareURL: '',
  publishURL: '',
};

describe('SimperiumClient', () => {
  let fake: FakeSimperium;
  let logs: string[];
  const configFor = (overrides: Partial<SimperiumConfig> = {}): SimperiumConfig =>
    simperiumConfigFromEnv(
      {
        SIMPERIUM_AUTH_URL: fake.url,
        SIMPERIUM_API_URL: fake.url + '/',
        SIMPERIUM_API_KEY: fake.apiKey,
        SIMPLENOTE_USERNAME: 'user@example.com',
        SIMPLENOTE_PASSWORD: PASSWORD,
      },
      { baseDelayMs: 5, maxDelayMs: 20, ...overrides },
    );
  const clientFor = (overrides: Partial<SimperiumConfig> = {}) => {
    const logger = pino({ level: 'debug' }, { write: (line: string) => void logs.push(line) });
    return new SimperiumClient(configFor(overrides), logger);
  };
  const count = (method: string, pattern: RegExp) =>
    fake.requests.filter((r) => r.method === method && pattern.test(r.path)).length;

  beforeAll(async () => {
    fake = await startFakeSimperium();
  });
  afterAll(() => fake.stop());
  beforeEach(() => {
    logs = [];
    fake.faults.clear();
  });

  it('creates, reads, updates with a base version, and reports an unchanged write as undefined', async () => {
    const client = clientFor();
    const created = await client.put('c1', NOTE);
    expect(created).toMatchObject({ version: 1, data: NOTE });
    expect(await client.get('c1')).toEqual({ version: 1, data: NOTE });
    const updated = await client.put('c1', { ...NOTE, content: 'Title\nv2' }, { baseVersion: 1 });
    expect(updated?.version).toBe(2);
    expect(await client.put('c1', { ...NOTE, content: 'Title\nv2' }, { baseVersion: 2 })).toBeUndefined();
    expect((await client.get('c1', 1))?.data.content).toBe('Title\nbody');
    expect(await client.get('never-there')).toBeUndefined();
  });

  it('pages the index with `mark` until it is absent, carrying `current`', async () => {
    const client = clientFor();
    for (let i = 0; i < 5; i += 1) await client.put(`p${i}`, { ...NOTE, content: `page note ${i}` });
    const pages = [];
    for await (const page of client.index({ limit: 2, data: true })) pages.push(page);
    const ids = pages.flatMap((p) => p.entries.map((e) => e.id));
    expect(new Set(ids).size).toBe(fake.bucket().size);
    expect(pages.at(-1)?.mark).toBeUndefined();
    expect(pages.slice(0, -1).every((p) => p.mark)).toBe(true);
    expect(new Set(pages.map((p) => p.current)).size).toBe(1);
  });

  it('logs in again once when the token is revoked mid-session', async () => {
    const client = clientFor();
    await client.put('r1', NOTE);
    const logins = count('POST', /authorize/);
    fake.revokeTokens();
    expect((await client.get('r1'))?.version).toBe(1);
    expect(count('POST', /authorize/)).toBe(logins + 1);
  });

  it('rides out 429 (with and without Retry-After), 503 and 500 bursts', async () => {
    const client = clientFor();
    await client.authorize();
    fake.faults.next(1, { kind: 'status', status: 429, retryAfter: '0' });
    fake.faults.next(1, { kind: 'status', status: 429 });
    fake.faults.next(1, { kind: 'status', status: 503 });
    fake.faults.next(1, { kind: 'status', status: 500 });
    expect((await client.put('b1', NOTE))?.version).toBe(1);
    expect(fake.bucket().get('b1')?.version).toBe(1);
  });

  it('a POST whose answer is cut off or late is retried with its ccid and applied once', async () => {
    // The deadline covers the retry too: the first attempt gets two thirds of it, the ccid replay the rest.
    const client = clientFor({ timeoutMs: 1200 });
    await client.put('d1', NOTE);
    fake.faults.next(1, { kind: 'drop' }, { method: 'POST' });
    expect((await client.put('d1', { ...NOTE, content: 'after a drop' }, { baseVersion: 1 }))?.version).toBe(2);
    fake.faults.next(1, { kind: 'delay', ms: 1500 }, { method: 'POST' });
    expect((await client.put('d1', { ...NOTE, content: 'after a timeout' }, { baseVersion: 2 }))?.version).toBe(3);
    expect(fake.bucket().get('d1')?.version).toBe(3);
  });

  it('gives up with a typed error after the retries, naming no secret', async () => {
    const client = clientFor({ maxAttempts: 3 });
    await client.put('s1', NOTE);
    fake.faults.next(3, { kind: 'status', status: 503 });
    const unavailable = await client.get('s1').catch((e: unknown) => e);
    expect(unavailable).toMatchObject({ code: 'backend_unavailable', details: { status: 503 } });
    const badLogin = await clientFor({ password: 'wrong-password' })
      .get('s1')
      .catch((e: unknown) => e);
    expect(badLogin).toMatchObject({ code: 'backend_unavailable', message: expect.stringContaining('invalid login') });
    for (const error of [unavailable, badLogin]) {
      const shown = `${inspect(error, { depth: 10 })}\n${JSON.stringify(error)}\n${(error as Error).stack}`;
      expect(shown).not.toContain(PASSWORD);
      expect(shown).not.toContain('wrong-password');
      expect(shown).not.toMatch(/[0-9a-f]{32}/);
    }
    expect(logs.length).toBeGreaterThan(0);
    expect(logs.join('\n')).not.toContain(PASSWORD);
    expect(logs.join('\n'), 'a token in the log').not.toMatch(/[0-9a-f]{32}/);
  });

  it('an index page past the body cap is asked for again at half the size; a single object past it is too_large', async () => {
    const client = clientFor({ maxResponseBytes: 4_000 });
    for (let i = 0; i < 12; i += 1) await client.put(`big${i}`, { ...NOTE, content: `Big ${i}\n${'y'.repeat(600)}` });
    const ids: string[] = [];
    for await (const page of client.index({ limit: 100, data: true })) ids.push(...page.entries.map((e) => e.id));
    expect(new Set(ids)).toEqual(
      new Set(
        fake
          .bucket()
          .index()
          .map((e) => e.id),
      ),
    );
    expect(fake.requests.some((r) => r.path.endsWith('/index') && r.query.get('limit') === '4')).toBe(true);
    fake.bucket().post('huge1', { ...NOTE, content: `Huge\n${'z'.repeat(5_000)}` });
    expect(await client.get('huge1').catch((e: unknown) => e)).toMatchObject({
      code: 'too_large',
      details: { setting: 'API_MAX_RESPONSE_MB', limitBytes: 4_000 },
    });
  });

  it('reads Retry-After as seconds or a date, capped', () => {
    expect(retryAfterMs('2')).toBe(2000);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 5_000)).toBe(5000);
    expect(retryAfterMs('3600')).toBe(60_000);
    expect(retryAfterMs(undefined)).toBeUndefined();
    expect(retryAfterMs('soon')).toBeUndefined();
  });
});
