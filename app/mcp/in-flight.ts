/**
 * Tool calls still running when the server is asked to stop. Shutdown stops taking new calls,
 * waits (bounded) for these to finish so their answers go out and their writes reach the index,
 * and only then closes the vault.
 */
import { ProtocolError } from './requests.js';

/** JSON-RPC server-error range: the server is shutting down; the client may retry elsewhere. */
export const SHUTTING_DOWN = -32000;

export const DRAIN_TIMEOUT_MS = 10_000;

export class InFlight {
  private readonly running = new Set<Promise<unknown>>();
  private accepting = true;

  get size(): number {
    return this.running.size;
  }

  /** Runs `work` unless shutdown began, in which case the caller gets a protocol error. */
  run<T>(work: () => Promise<T>): Promise<T> {
    if (!this.accepting)
      return Promise.reject(new ProtocolError(SHUTTING_DOWN, 'The server is shutting down; no new calls are taken.'));
    const promise = work();
    this.running.add(promise);
    const forget = () => this.running.delete(promise);
    promise.then(forget, forget);
    return promise;
  }

  /** Stops taking calls and resolves when the running ones settle or `timeoutMs` passes; true if all settled. */
  async drain(timeoutMs = DRAIN_TIMEOUT_MS): Promise<boolean> {
    this.accepting = false;
    if (this.running.size === 0) return true;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
    const settled = Promise.allSettled([...this.running]).then(() => true as const);
    try {
      return await Promise.race([settled, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}
