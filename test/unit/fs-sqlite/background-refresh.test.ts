/**
 * Opening does not wait for the index: a note file is read at once, calls that need index rows
 * wait for the refresh, writes made meanwhile are kept, and a close stops a refresh half-way
 * without losing what it indexed (decision 013).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { IndexFreshness } from '../../../backends/fs-sqlite/index-freshness.js';
import { note, useVaults } from './helpers.js';

const { openVault, vaultDir } = useVaults();

function manyNotes(count: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < count; i++) files[`general/n-${i}.md`] = note(`N ${i}`, `body ${i}\n`);
  return files;
}

/** The order in which the given promises settle. */
async function settleOrder(named: Record<string, Promise<unknown>>): Promise<string[]> {
  const order: string[] = [];
  await Promise.all(Object.entries(named).map(([name, p]) => p.then(() => order.push(name))));
  return order;
}

describe('the index refresh runs behind the open', () => {
  it('serves a note file before the index is ready; index-backed calls wait and see every note', async () => {
    const root = await vaultDir(manyNotes(1200));
    const { store } = await openVault(root);
    const count = store.count();
    const read = store.get('general/n-7.md');
    expect(await settleOrder({ count, read })).toEqual(['read', 'count']);
    expect((await read)?.content).toBe('body 7\n');
    expect(await count).toBe(1200);
  });

  it('keeps a note created while the first refresh runs', async () => {
    const root = await vaultDir(manyNotes(800));
    const { store } = await openVault(root);
    const created = await store.create({ title: 'Made during the refresh', type: 'general', content: 'new\n' });
    expect(await store.count()).toBe(801);
    expect((await store.list({ limit: 1000 })).map((n) => n.id)).toContain(created.id);
    expect(await store.refresh!()).toMatchObject({ scanned: 801, indexed: 0, removed: 0 });
  });

  it('stops at close, keeps what it indexed, and the next open finishes the job', async () => {
    const root = await vaultDir(manyNotes(1500));
    const first = await openVault(root);
    await first.close();
    const { store } = await openVault(root);
    expect(await store.count()).toBe(1500);
    expect(await store.refresh!()).toMatchObject({ scanned: 1500, indexed: 0 });
  });
});

describe('IndexFreshness', () => {
  afterEach(() => void vi.useRealTimers());
  // A scheduled refresh waits on setTimeout, faked here; `pause` yields with setImmediate, left real.
  const fakeClock = () => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  const report = (indexed: number) => ({ scanned: indexed, indexed, removed: 0, skipped: [], ms: 0 });

  it('runs refreshes one after another and reports a failed one to index-backed calls until one succeeds', async () => {
    const freshness = new IndexFreshness();
    const order: string[] = [];
    const first = freshness.refresh(async (pause) => {
      await pause();
      order.push('first');
      throw new Error('disk on fire');
    });
    const second = freshness.refresh(async () => {
      order.push('second');
      return report(0);
    });
    await expect(first).rejects.toThrow('disk on fire');
    await second;
    expect(order).toEqual(['first', 'second']);
    await expect(freshness.ready()).resolves.toBeUndefined();

    await freshness.refresh(async () => Promise.reject(new Error('disk on fire'))).catch(() => undefined);
    await expect(freshness.ready()).rejects.toMatchObject({
      code: 'backend_unavailable',
      message: expect.stringMatching(/disk on fire/),
    });
    await freshness.refresh(async () => report(0));
    await expect(freshness.ready()).resolves.toBeUndefined();
  });

  it('starts a scheduled refresh when its time comes, or at once when a call needs the index', async () => {
    fakeClock();
    const freshness = new IndexFreshness();
    const errors: unknown[] = [];
    let started = 0;
    freshness.later(
      async () => (started++, report(1)),
      60_000,
      (err) => errors.push(err),
    );
    expect(freshness.busy).toBe(true);
    expect(started).toBe(0);
    await freshness.ready();
    expect(started).toBe(1);
    expect(freshness.busy).toBe(false);

    freshness.later(
      async () => (started++, report(2)),
      10,
      (err) => errors.push(err),
    );
    await vi.advanceTimersByTimeAsync(9);
    expect(started).toBe(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(started).toBe(2);
    await freshness.ready();
    expect(errors).toEqual([]);
  });

  it('an explicit refresh takes the place of a scheduled one that has not begun', async () => {
    const freshness = new IndexFreshness();
    const ran: string[] = [];
    freshness.later(
      async () => (ran.push('scheduled'), report(5)),
      60_000,
      () => undefined,
    );
    expect(await freshness.refresh(async () => (ran.push('explicit'), report(0)))).toMatchObject({ indexed: 5 });
    expect(ran).toEqual(['scheduled']);
    expect(await freshness.refresh(async () => (ran.push('explicit'), report(0)))).toMatchObject({ indexed: 0 });
    expect(ran).toEqual(['scheduled', 'explicit']);
  });

  it('drops a scheduled refresh at close, and stops one under way at its next pause', async () => {
    fakeClock();
    const scheduledOnly = new IndexFreshness();
    let ran = false;
    scheduledOnly.later(
      async () => ((ran = true), report(0)),
      10,
      () => undefined,
    );
    await scheduledOnly.close();
    await vi.advanceTimersByTimeAsync(30);
    expect(ran).toBe(false);

    const freshness = new IndexFreshness();
    let slices = 0;
    let sliced!: () => void;
    const underWay = new Promise<void>((resolve) => (sliced = resolve));
    const running = freshness.refresh(async (pause) => {
      for (;;) {
        slices++;
        sliced();
        await pause();
      }
    });
    await underWay;
    await freshness.close();
    await expect(running).rejects.toThrow(/closed before the index refresh finished/);
    expect(slices).toBeGreaterThan(0);
    await expect(freshness.ready()).rejects.toMatchObject({
      code: 'backend_unavailable',
      message: 'The vault is closing.',
    });
  });
});
