/**
 * The index is brought up to date in the background. Opening a vault does not wait for the scan
 * (one stat per note: ~100 ms at 10,000 notes), so answers that need only a note file come at
 * once; every call that reads or writes index rows waits here until no refresh is under way.
 * Refreshes run one after another, in slices, so requests are served between them.
 */
import type { RefreshReport } from '../../kernel/backend.js';
import { BackendUnavailableError, NotekernelError, systemFault } from '../../kernel/errors.js';

/** A refresh stopped because the vault is closing: not a failure worth reporting. */
export class RefreshStopped extends Error {
  constructor() {
    super('the vault closed before the index refresh finished');
  }
}

type Refresh = (pause: () => Promise<void>) => Promise<RefreshReport>;

export class IndexFreshness {
  private running: Promise<void> | undefined;
  private failure: unknown;
  private closing = false;
  /** The opening refresh, while it waits to start (see `later`). */
  private scheduled: { start: () => Promise<RefreshReport>; timer: NodeJS.Timeout } | undefined;

  /** Whether a refresh is under way or scheduled (the rows are not yet to be trusted or touched). */
  get busy(): boolean {
    return this.running !== undefined || this.scheduled !== undefined;
  }

  /**
   * Starts `refresh` after `delayMs`, or at once when a call needs the index first: a client's
   * handshake and first reads, which need no index, are answered before the scan competes with
   * them for the one JavaScript thread.
   */
  later(refresh: Refresh, delayMs: number, onError: (err: unknown) => void): void {
    const start = (): Promise<RefreshReport> => {
      clearTimeout(timer);
      this.scheduled = undefined;
      const started = this.run(refresh);
      started.catch(onError);
      return started;
    };
    const timer = setTimeout(start, delayMs);
    timer.unref();
    this.scheduled = { start, timer };
  }

  /**
   * A refresh: the scheduled one, started now, when it has not begun (it covers everything a
   * second one would); otherwise one more, after any under way.
   */
  refresh(refresh: Refresh): Promise<RefreshReport> {
    return this.scheduled?.start() ?? this.run(refresh);
  }

  /** `refresh` after any under way (and after the opening one, started now if it waits). */
  queue(refresh: Refresh): Promise<RefreshReport> {
    this.scheduled?.start();
    return this.run(refresh);
  }

  /** Resolves once no refresh is under way; fails when the last one failed (the rows may be stale). */
  async ready(): Promise<void> {
    this.scheduled?.start();
    while (this.running) await this.running;
    if (this.failure === undefined) return;
    if (this.failure instanceof RefreshStopped) throw new BackendUnavailableError('The vault is closing.');
    const fault = systemFault(this.failure);
    if (fault)
      throw new NotekernelError(
        fault.code,
        `The index could not be brought up to date: ${fault.message} It is tried again at the next call.`,
        fault.details,
      );
    const reason = this.failure instanceof Error ? this.failure.message : String(this.failure);
    throw new BackendUnavailableError(
      `The index could not be brought up to date (${reason}); run \`notekernel index\` or reopen the vault.`,
      { reason },
    );
  }

  /**
   * For reads that may answer from the rows as they stand (`servable`: a whole earlier state of
   * the vault): starts a refresh that waits to begin and resolves at once while one runs.
   * Otherwise (a first build under way, a failed refresh) as `ready()`.
   */
  async readable(servable: boolean): Promise<void> {
    this.scheduled?.start();
    if (servable && this.running) return;
    await this.ready();
  }

  /** Drops a refresh not yet begun, stops one under way at its next slice, and waits for it to end. */
  async close(): Promise<void> {
    this.closing = true;
    if (this.scheduled) clearTimeout(this.scheduled.timer);
    this.scheduled = undefined;
    while (this.running) await this.running;
  }

  /** Runs `refresh` after any refresh under way; `pause` yields to the event loop and stops it on close. */
  private run(refresh: Refresh): Promise<RefreshReport> {
    const previous = this.running;
    const result = (async () => {
      if (previous) await previous;
      return refresh(this.pause);
    })();
    const tracked: Promise<void> = result.then(
      () => {
        this.failure = undefined;
      },
      (err: unknown) => {
        this.failure = err;
      },
    );
    this.running = tracked;
    void tracked.then(() => {
      if (this.running === tracked) this.running = undefined;
    });
    return result;
  }

  private readonly pause = (): Promise<void> =>
    new Promise((resolve, reject) => {
      setImmediate(() => (this.closing ? reject(new RefreshStopped()) : resolve()));
    });
}
