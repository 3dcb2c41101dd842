import { describe, expect, it } from 'vitest';
import { backoff } from '../../../toolkit/backoff.js';

describe('backoff', () => {
  it('doubles from the base per attempt and stops at the cap', () => {
    const waits = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((attempt) => backoff(attempt, { baseMs: 100, maxMs: 5_000 }));
    expect(waits).toEqual([100, 200, 400, 800, 1_600, 3_200, 5_000, 5_000, 5_000]);
  });

  it('waits the base before the first retry however the attempt is counted from below', () => {
    expect(backoff(0, { baseMs: 250, maxMs: 30_000 })).toBe(250);
    expect(backoff(1, { baseMs: 250, maxMs: 30_000 })).toBe(250);
  });

  it('with jitter 0.5 waits between half and the whole step, rounded', () => {
    const figures = { baseMs: 300, maxMs: 10_000, jitter: 0.5 };
    expect(backoff(3, { ...figures, random: () => 0 })).toBe(600);
    expect(backoff(3, { ...figures, random: () => 1 })).toBe(1_200);
    expect(backoff(3, { ...figures, random: () => 0.5 })).toBe(900);
    expect(backoff(10, { ...figures, random: () => 0.999 })).toBeLessThanOrEqual(10_000);
  });

  it('is the figures each retry loop used before it was shared', () => {
    // simplenote's sync loop: the interval, doubled per failed cycle, at most 8 intervals
    const interval = 60_000;
    const sync = [0, 1, 2, 3, 4, 5].map((failures) => backoff(failures + 1, { baseMs: interval, maxMs: interval * 8 }));
    expect(sync).toEqual([0, 1, 2, 3, 4, 5].map((failures) => interval * Math.min(8, 2 ** failures)));
    // the embed queue: 500 ms doubled up to 30 s
    const embed = [1, 2, 3, 7, 8].map((failures) => backoff(failures, { baseMs: 500, maxMs: 30_000 }));
    expect(embed).toEqual([500, 1_000, 2_000, 30_000, 30_000]);
  });
});
