/**
 * The index is brought up to date in the background. Opening a vault does not wait for the scan
 * (one stat per note: ~100 ms at 10,000 notes), so answers that need only a note file come at
 * once; every call that reads or writes index rows waits here until no refresh is under way.
 * Refreshes run one after another, in slices, so requests are served between them.
 */
import { BackendUnavailableError } from '../../kernel/errors.js';

/** A refresh stopped because the vault is closing: not a failure worth reporting. */
export class RefreshStopped extends Error {
  constructor() {
    super('the vault closed before the index refresh finished');
  }
}

export class IndexFreshness {
  private running: Promise<void> | undefined;
  private failure: unknown;
  private closing = false;

  /** Whether a refresh is under way (its rows are not yet to be trusted or touched). */
  get busy(): boolean {
    return this.running !== undefined;
  }

  /** Runs `task` after any refresh under way; `pause` yields to the event loop and stops the task on close. */
  run<T>(task: (pause: () => Promise<void>) => Promise<T>): Promise<T> {
    const previous = this.running;
    const result = (async () => {
      if (previous) await previous;
      return task(this.pause);
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

  /** Resolves once no refresh is under way; fails when the last one failed (the rows may be stale). */
  async ready(): Promise<void> {
    while (this.running) await this.running;
    if (this.failure === undefined) return;
    if (this.failure instanceof RefreshStopped) throw new BackendUnavailableError('The vault is closing.');
    const reason = this.failure instanceof Error ? this.failure.message : String(this.failure);
    throw new BackendUnavailableError(`The index could not be brought up to date (${reason}); run \`notekernel index\` or reopen the vault.`, { reason });
  }

  /** Stops a refresh under way at its next slice and waits for it to end. */
  async close(): Promise<void> {
    this.closing = true;
    while (this.running) await this.running;
  }

  private readonly pause = (): Promise<void> =>
    new Promise((resolve, reject) => {
      setImmediate(() => (this.closing ? reject(new RefreshStopped()) : resolve()));
    });
}
