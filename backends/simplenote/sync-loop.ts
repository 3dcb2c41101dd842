/**
 * The background syncs: a self-rescheduling timer (seed 003 §8: one cycle at a time) that runs
 * a delta sync every SYNC_INTERVAL_SECONDS and backs off after failures — the delay doubles
 * per failed cycle in a row, up to 8 intervals, and is back to the interval after a success.
 * Failures are logged; refused credentials at error level, once per run of failures, since no
 * later cycle can succeed until the user changes them. `state()` is what get_stats shows.
 */
import type { FaultReporter } from '../../kernel/faults.js';
import { backoff } from '../../toolkit/backoff.js';
import type { Logger } from '../../kernel/logger.js';
import { SimperiumAuthError } from './client/errors.js';
import type { SyncLoopState, SyncResult, Syncer } from './sync.js';

const MAX_BACKOFF_INTERVALS = 8;
const FAULT = 'simplenote sync';

export class SyncLoop {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<SyncResult> | undefined;
  private failures = 0;
  private nextAt: number | undefined;
  private refused: string | undefined;
  private stopped = false;
  private started = false;

  constructor(
    private readonly syncer: Syncer,
    private readonly logger: Logger,
    private readonly intervalSeconds: number,
    /** Told while cycles fail, so answers carry a notice and `doctor` lists it (decision 038). */
    private readonly faults?: FaultReporter,
  ) {}

  /**
   * Starts the timer once; `now`: the first cycle runs at once (sync at start, whether or not
   * a cache exists), and its promise is returned (it rejects with that cycle's error).
   */
  start(options: { now: boolean }): Promise<SyncResult> | undefined {
    if (this.started || this.stopped) return this.running;
    this.started = true;
    if (options.now) return this.round();
    this.schedule(this.intervalSeconds * 1000);
    return undefined;
  }

  /** One cycle now, unless one is running (then that one). Settles like the cycle. */
  round(): Promise<SyncResult> {
    this.running ??= this.syncer
      .sync()
      .then(
        (result) => (this.succeeded(), result),
        (err: unknown) => {
          this.failed(err);
          throw err;
        },
      )
      .finally(() => {
        this.running = undefined;
        this.scheduleNext();
      });
    const cycle = this.running;
    cycle.catch(() => undefined);
    return cycle;
  }

  state(): SyncLoopState {
    return {
      state: this.intervalSeconds === 0 ? 'off' : this.failures > 0 ? 'backing-off' : 'ok',
      intervalSeconds: this.intervalSeconds,
      consecutiveFailures: this.failures,
      ...(this.nextAt !== undefined ? { nextSyncAt: new Date(this.nextAt).toISOString() } : {}),
      ...(this.refused ? { credentialsRefused: this.refused } : {}),
    };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.nextAt = undefined;
    await this.running?.catch(() => undefined);
  }

  private succeeded(): void {
    if (this.failures > 0) this.logger.info({ after: this.failures }, 'simplenote sync works again');
    if (this.refused) this.logger.info('simplenote accepted the credentials again');
    this.faults?.clear(FAULT);
    this.failures = 0;
    this.refused = undefined;
  }

  private failed(err: unknown): void {
    this.failures += 1;
    this.faults?.report(
      FAULT,
      err,
      'The cache still answers list and get; saves need the service; syncs are retried with backoff.',
    );
    const message = (err as Error).message;
    if (err instanceof SimperiumAuthError) {
      if (!this.refused)
        this.logger.error(
          { error: message },
          'Simplenote refused the credentials: nothing syncs until SIMPLENOTE_USERNAME / SIMPLENOTE_PASSWORD are fixed (the cache still answers list and get)',
        );
      this.refused = message;
    } else
      this.logger.warn(
        { error: message, failures: this.failures, nextInSeconds: Math.round(this.delayMs() / 1000) || undefined },
        'simplenote sync failed; backing off',
      );
  }

  /** The interval, doubled per failed cycle in a row, at most 8 intervals. */
  private delayMs(): number {
    if (this.intervalSeconds === 0) return 0;
    const intervalMs = this.intervalSeconds * 1000;
    return backoff(this.failures + 1, { baseMs: intervalMs, maxMs: intervalMs * MAX_BACKOFF_INTERVALS });
  }

  private scheduleNext(): void {
    if (this.started && !this.stopped) this.schedule(this.delayMs());
  }

  private schedule(ms: number): void {
    clearTimeout(this.timer);
    this.nextAt = undefined;
    if (ms <= 0 || this.stopped) return;
    this.nextAt = Date.now() + ms;
    (this.timer = setTimeout(() => void this.round().catch(() => undefined), ms)).unref();
  }
}
