/**
 * The simplenote backend under faults from the fake Simperium server: no confirmed write is
 * lost, no note is duplicated, and an interrupted sync resumes from what was stored.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeSimperium, type FakeSimperium } from '../../support/fake-simperium/index.js';
import { openSimplenote, type SimplenoteSubject } from '../../support/simplenote-subject.js';
import { removeDir, tempDir } from '../../support/temp.js';

const NOTE = {
  tags: [],
  systemTags: [],
  creationDate: 1700000000,
  modificationDate: 1700000000,
  deleted: false,
  shareURL: '',
  publishURL: '',
};

function seed(fake: FakeSimperium, count: number, prefix = 'seeded'): void {
  for (let i = 0; i < count; i += 1)
    fake
      .bucket()
      .post(`${prefix}${i}`, { ...NOTE, content: `${prefix} ${i}\nbody ${i}`, modificationDate: 1700000000 + i });
}

describe('simplenote backend under faults', () => {
  let subject: SimplenoteSubject | undefined;
  const requests = (method: string, pattern: RegExp) =>
    subject!.fake.requests.filter((r) => r.method === method && pattern.test(r.path));
  afterEach(async () => {
    await subject?.close();
    subject = undefined;
  });

  it('a token revoked mid-session: the write logs in again and succeeds once', async () => {
    subject = await openSimplenote();
    const store = subject.instance.store!;
    const note = await store.create({ title: 'Revoked', content: 'v1' });
    subject.fake.revokeTokens();
    const updated = await store.update(note.id, { content: 'v2' }, note.contentHash);
    expect(updated.content).toBe('v2');
    expect(requests('POST', /authorize/)).toHaveLength(2);
    expect(subject.fake.bucket().get(note.id)?.version).toBe(2);
  });

  it('429 and 503 bursts: every write lands exactly once', async () => {
    subject = await openSimplenote();
    const store = subject.instance.store!;
    subject.fake.faults.next(2, { kind: 'status', status: 429, retryAfter: '0' }, { method: 'POST' });
    subject.fake.faults.next(2, { kind: 'status', status: 503 }, { method: 'POST' });
    const note = await store.create({ title: 'Burst', content: 'x' });
    subject.fake.faults.next(3, { kind: 'status', status: 503 }, { method: 'GET' });
    const updated = await store.update(note.id, { content: 'y' }, note.contentHash);
    expect(subject.fake.bucket().size).toBe(1);
    expect(subject.fake.bucket().get(note.id)).toMatchObject({ version: 2, data: { content: 'Burst\ny' } });
    expect((await store.get(note.id))?.contentHash).toBe(updated.contentHash);
  });

  it('a write whose answer times out or is cut off is retried with its ccid: one note, one version', async () => {
    // The deadline covers the retry too: the first attempt gets two thirds of it, the ccid replay the rest.
    subject = await openSimplenote({ client: { timeoutMs: 1200 } });
    const store = subject.instance.store!;
    subject.fake.faults.next(1, { kind: 'delay', ms: 1500 }, { method: 'POST' });
    const note = await store.create({ title: 'Slow', content: 'x' });
    subject.fake.faults.next(1, { kind: 'drop' }, { method: 'POST' });
    const updated = await store.update(note.id, { content: 'y' }, note.contentHash);
    expect(subject.fake.bucket().size).toBe(1);
    expect(subject.fake.bucket().get(note.id)?.version).toBe(2);
    expect(updated.metadata.version).toBe(2);
  });

  it('a connection dropped mid-page during the full sync: the page is fetched again, nothing missing', async () => {
    const fake = await startFakeSimperium();
    seed(fake, 250);
    fake.faults.next(1, { kind: 'drop' }, { path: /\/index$/, query: /mark=/ });
    subject = await openSimplenote({ fake });
    expect(await subject.instance.store!.count()).toBe(250);
    await fake.stop();
  });

  it('a full sync cut short resumes from its stored mark; every confirmed write survives a reopen', async () => {
    const fake = await startFakeSimperium();
    const folder = await tempDir('nk-simplenote-');
    seed(fake, 250);
    fake.faults.next(2, { kind: 'status', status: 503 }, { path: /\/index$/, query: /mark=/ });
    await expect(openSimplenote({ fake, folder, client: { maxAttempts: 2 } })).rejects.toMatchObject({
      code: 'backend_unavailable',
    });
    fake.requests.length = 0;
    subject = await openSimplenote({ fake, folder });
    const listings = fake.requests.filter((r) => r.path.endsWith('/index'));
    expect(listings[0]?.query.get('mark'), 'the second open starts at the stored mark').toBeTruthy();
    expect(await subject.instance.store!.count()).toBe(250);
    const store = subject.instance.store!;
    const note = await store.create({ title: 'Confirmed', content: 'kept' });
    await store.close();
    fake.requests.length = 0;
    const reopened = await subject.reopen();
    expect((await reopened.store!.list()).map((n) => n.id)).toContain(note.id);
    expect(await reopened.store!.count()).toBe(251);
    expect(
      fake.requests.filter((r) => r.path.endsWith('/index')),
      'a reopen with a cursor serves the cache',
    ).toEqual([]);
    await reopened.store!.close();
    await fake.stop();
    await removeDir(folder);
  });

  it('a delta sync that fails keeps its cursor; the next refresh resumes from it and catches up', async () => {
    subject = await openSimplenote({ client: { maxAttempts: 2 } });
    const store = subject.instance.store!;
    const note = await store.create({ title: 'Delta', content: 'v1' });
    await store.refresh!();
    const deltaSince = () =>
      subject!.fake.requests
        .filter((r) => r.path.endsWith('/index') && r.query.get('data') === '1')
        .map((r) => r.query.get('since'));
    const firstCursor = deltaSince().at(-1);
    seed(subject.fake, 3, 'remote');
    subject.fake.bucket().post(note.id, { content: 'Delta\nedited elsewhere' });
    subject.fake.faults.next(2, { kind: 'status', status: 503 }, { path: /\/index$/ });
    await expect(store.refresh!()).rejects.toMatchObject({ code: 'backend_unavailable' });
    const failedFrom = deltaSince().at(-1);
    expect(failedFrom, 'the first refresh moved the cursor').not.toBe(firstCursor);
    const report = await store.refresh!();
    expect(deltaSince().at(-1), 'the retry starts from the cursor the failed one had').toBe(failedFrom);
    expect(report).toMatchObject({ scanned: 4, indexed: 4, removed: 0 });
    expect((await store.list()).find((n) => n.id === note.id)?.title).toBe('Delta');
    expect((await subject.instance.search!.search({ text: 'elsewhere', limit: 5 })).hits.map((h) => h.id)).toEqual([
      note.id,
    ]);
  });
});
