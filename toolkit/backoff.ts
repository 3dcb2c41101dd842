/**
 * The wait before retry number `attempt` (1 for the first retry): `baseMs` doubled per attempt,
 * never above `maxMs`. Every retry loop takes its wait from here so the curve is written once;
 * each keeps its own figures. `jitter` (0–1) is the share of the step drawn at random, so
 * clients that failed together do not retry together: 0.5 waits between half and the whole step.
 */
export interface Backoff {
  baseMs: number;
  maxMs: number;
  jitter?: number;
  random?: () => number;
}

export function backoff(attempt: number, { baseMs, maxMs, jitter = 0, random = Math.random }: Backoff): number {
  const step = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  if (jitter === 0) return step;
  return Math.round(step * (1 - jitter) + random() * step * jitter);
}
