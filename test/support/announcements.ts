/**
 * The `notifications/resources/updated` a client receives, each with the moment it arrived, so
 * a test can ask how long after a write the first announcement of a URI came. The same handler
 * serves both eras: a 2025 client's subscription and a 2026-07-28 `subscriptions/listen` stream
 * deliver through it.
 */
import { performance } from 'node:perf_hooks';
import type { Client } from '@modelcontextprotocol/client';

interface Arrival {
  uri: string;
  at: number;
}

export class Announcements {
  private readonly arrivals: Arrival[] = [];
  private readonly waiting = new Set<() => void>();

  constructor(
    client: Client,
    /** Names the listener in a failure message. */
    readonly name: string,
  ) {
    client.setNotificationHandler('notifications/resources/updated', (notification) => {
      this.arrivals.push({ uri: notification.params.uri, at: performance.now() });
      for (const wake of this.waiting) wake();
    });
  }

  /** How many announcements of `uri` arrived since `since` (a `performance.now()` reading). */
  count(uri: string, since: number): number {
    return this.arrivals.filter((a) => a.uri === uri && a.at >= since).length;
  }

  /**
   * Milliseconds from `since` to the first announcement of `uri` at or after it. Waits up to
   * `timeoutMs`, longer than the bound the test asserts, so a late announcement is measured
   * rather than only missed.
   */
  async latency(uri: string, since: number, timeoutMs = 5000): Promise<number> {
    const found = () => this.arrivals.find((a) => a.uri === uri && a.at >= since);
    const arrival =
      found() ??
      (await new Promise<Arrival>((resolve, reject) => {
        const wake = () => {
          const hit = found();
          if (!hit) return;
          clearTimeout(timer);
          this.waiting.delete(wake);
          resolve(hit);
        };
        const timer = setTimeout(() => {
          this.waiting.delete(wake);
          reject(new Error(`${this.name}: ${uri} was not announced within ${timeoutMs} ms`));
        }, timeoutMs);
        this.waiting.add(wake);
      }));
    return arrival.at - since;
  }
}

/** The median and the largest of some latencies, rounded to whole milliseconds, for the test's printout. */
export function spread(latencies: readonly number[]): { n: number; p50: number; max: number } {
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    n: sorted.length,
    p50: Math.round(sorted[Math.floor((sorted.length - 1) / 2)] ?? Number.NaN),
    max: Math.round(sorted.at(-1) ?? Number.NaN),
  };
}
