import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { KeyedMutex } from '../../../toolkit/mutex.js';

// Every wait below is on vitest's fake clock: the tests advance it, nothing sleeps.
beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** A promise with its resolver, to make a task wait for another. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** The promise's value, or a failure naming `what` if it has not settled once the clock has moved `ms` on. */
async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  const raced = Promise.race([
    promise,
    sleep(ms).then(() => Promise.reject(new Error(`${what} did not finish within ${ms} ms`))),
  ]);
  await vi.advanceTimersByTimeAsync(ms);
  return raced;
}

/** Runs the tasks' timers to the end, then their results. */
async function drained<T>(promise: Promise<T>): Promise<T> {
  await vi.runAllTimersAsync();
  return promise;
}

describe('KeyedMutex', () => {
  it('runs tasks on one key one at a time, in call order', async () => {
    const mutex = new KeyedMutex();
    const log: string[] = [];
    let inside = 0;
    let maxInside = 0;
    const task = (i: number) =>
      mutex.run('k', async () => {
        inside++;
        maxInside = Math.max(maxInside, inside);
        log.push(`start ${i}`);
        await sleep(i % 2 ? 1 : 8);
        log.push(`end ${i}`);
        inside--;
        return i;
      });
    const results = await drained(Promise.all([0, 1, 2, 3, 4].map(task)));
    expect(results).toEqual([0, 1, 2, 3, 4]);
    expect(maxInside).toBe(1);
    expect(log).toEqual([0, 1, 2, 3, 4].flatMap((i) => [`start ${i}`, `end ${i}`]));
  });

  it('a read-compare-write under the lock never loses an update', async () => {
    const mutex = new KeyedMutex();
    let value = 0;
    await drained(
      Promise.all(
        Array.from({ length: 50 }, () =>
          mutex.run('counter', async () => {
            const read = value;
            await sleep(0);
            value = read + 1;
          }),
        ),
      ),
    );
    expect(value).toBe(50);
  });

  it('does not serialise across keys', async () => {
    const mutex = new KeyedMutex();
    const aStarted = deferred();
    const bStarted = deferred();
    // Each task waits for the other to have started: only possible if they overlap.
    const a = mutex.run('a', async () => {
      aStarted.resolve();
      await bStarted.promise;
      return 'a';
    });
    const b = mutex.run('b', async () => {
      bStarted.resolve();
      await aStarted.promise;
      return 'b';
    });
    expect(await withTimeout(Promise.all([a, b]), 2000, 'tasks on two keys')).toEqual(['a', 'b']);
  });

  it('a failing task releases the key and its error reaches only its caller', async () => {
    const mutex = new KeyedMutex();
    const order: string[] = [];
    const failing = mutex.run('k', async () => {
      order.push('fail');
      throw new Error('boom');
    });
    const next = mutex.run('k', async () => {
      order.push('next');
      return 'ok';
    });
    await expect(failing).rejects.toThrow('boom');
    expect(await withTimeout(next, 2000, 'the task after a failure')).toBe('ok');
    expect(order).toEqual(['fail', 'next']);
  });

  it('a synchronous throw inside the task also releases the key', async () => {
    const mutex = new KeyedMutex();
    await expect(
      mutex.run('k', () => {
        throw new Error('sync');
      }),
    ).rejects.toThrow('sync');
    expect(
      await withTimeout(
        mutex.run('k', async () => 1),
        2000,
        'the task after a sync throw',
      ),
    ).toBe(1);
  });

  it('the key is usable again after the queue drains', async () => {
    const mutex = new KeyedMutex();
    await drained(mutex.run('k', async () => sleep(1)));
    let ran = false;
    await withTimeout(
      mutex.run('k', async () => {
        ran = true;
      }),
      2000,
      'a later task',
    );
    expect(ran).toBe(true);
  });
});
