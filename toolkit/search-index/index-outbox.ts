/**
 * Keeps a search index that is separate from the store in step with it, behind the writes. A
 * write that reached the store has succeeded whatever the index does: its upsert or removal is
 * queued here and applied in the background, retried with backoff while the index fails. A read
 * that needs the index (a search) waits until the queue is empty, so it sees every write
 * acknowledged before it. Nothing is kept on disk: a process that dies with a non-empty queue
 * loses it, and the next open's `reconcile` (run first thing here) repairs the index from the store.
 */
import type { ReconcileSource, SearchIndex, SearchPage, SearchQuery, SqlQueryOptions } from '../../kernel/backend.js';
import { backoff } from '../backoff.js';
import { BackendUnavailableError } from '../../kernel/errors.js';
import type { SqlParams } from '../../kernel/index-database.js';
import type { Logger } from '../../kernel/logger.js';
import type { Note } from '../../kernel/note.js';
import type { ProgressReporter } from '../../kernel/progress.js';
import { forwardingSearchIndex } from '../../kernel/search-forwarding.js';

export interface IndexOutboxOptions {
  /** First retry delay; doubles per failure up to `maxRetryMs`. */
  retryMs?: number;
  maxRetryMs?: number;
  /** Longest a search waits for the queue before failing with `backend_unavailable`. */
  readWaitMs?: number;
}

type Pending = { op: 'upsert'; note: Note } | { op: 'remove'; id: string };

export class IndexOutbox {
  /** Last change per note id: an upsert after an upsert keeps only the newer note. */
  private readonly pending = new Map<string, Pending>();
  private draining: Promise<void> | undefined;
  private idleWaiters: Array<() => void> = [];
  private reconciled: Promise<void> = Promise.resolve();
  private lastError: unknown;
  private retryTimer: NodeJS.Timeout | undefined;
  private endPause: (() => void) | undefined;
  private closed = false;
  private readonly retryMs: number;
  private readonly maxRetryMs: number;
  private readonly readWaitMs: number;

  constructor(
    private readonly index: SearchIndex,
    private readonly logger: Logger,
    options: IndexOutboxOptions = {},
  ) {
    this.retryMs = options.retryMs ?? 100;
    this.maxRetryMs = options.maxRetryMs ?? 5_000;
    this.readWaitMs = options.readWaitMs ?? 30_000;
  }

  /** Starts the catch-up with the store; searches wait for it. Without `reconcile` there is nothing to catch up on. */
  reconcileWith(source: ReconcileSource): void {
    const reconcile = this.index.reconcile?.bind(this.index);
    if (!reconcile) return;
    this.reconciled = this.retrying('reconcile', async () => {
      const report = await reconcile(source);
      this.logger.info(report, 'search index reconciled with the store');
    });
  }

  upsert(note: Note): void {
    this.enqueue(note.id, { op: 'upsert', note });
  }

  remove(id: string): void {
    this.enqueue(id, { op: 'remove', id });
  }

  /** Resolves once the catch-up and every queued change are applied; fails after `readWaitMs` with the index's last error. */
  async settled(): Promise<void> {
    await this.withinReadWait(this.reconciled);
    if (this.pending.size === 0 && !this.draining) return;
    await this.withinReadWait(new Promise<void>((resolve) => this.idleWaiters.push(resolve)));
  }

  /** Like `settled`, without a time limit: for a caller that chose to wait (the CLI's `index`). */
  async idle(): Promise<void> {
    await this.reconciled;
    if (this.pending.size === 0 && !this.draining) return;
    await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  /** Applies what is queued (bounded by `waitMs`), then stops retrying. */
  async close(waitMs = 5_000): Promise<void> {
    const flushed = this.settled().catch(() => undefined);
    await Promise.race([flushed, new Promise((resolve) => setTimeout(resolve, waitMs).unref())]);
    this.closed = true;
    clearTimeout(this.retryTimer);
    this.endPause?.();
    if (this.pending.size)
      this.logger.warn({ pending: this.pending.size }, 'search index updates left for the next open to reconcile');
    this.wakeIdle();
  }

  private enqueue(id: string, change: Pending): void {
    if (this.closed) return;
    this.pending.set(id, change);
    this.draining ??= this.drain();
  }

  private async drain(): Promise<void> {
    await this.reconciled.catch(() => undefined);
    let failures = 0;
    while (this.pending.size && !this.closed) {
      const [id, change] = this.pending.entries().next().value as [string, Pending];
      this.pending.delete(id);
      try {
        if (change.op === 'upsert') await this.index.upsert(change.note);
        else await this.index.remove(change.id);
        failures = 0;
        this.lastError = undefined;
      } catch (err) {
        // Put it back unless a newer change for the same note arrived meanwhile.
        if (!this.pending.has(id)) this.pending.set(id, change);
        this.lastError = err;
        failures += 1;
        if (failures === 1) this.logger.warn({ err, id }, 'search index update failed; retrying behind the write');
        await this.pause(backoff(failures, { baseMs: this.retryMs, maxMs: this.maxRetryMs }));
      }
    }
    this.draining = undefined;
    this.wakeIdle();
  }

  private async retrying(what: string, run: () => Promise<void>): Promise<void> {
    for (let failures = 1; !this.closed; failures += 1) {
      try {
        await run();
        this.lastError = undefined;
        return;
      } catch (err) {
        this.lastError = err;
        if (failures === 1) this.logger.warn({ err }, `search index ${what} failed; retrying`);
        await this.pause(backoff(failures, { baseMs: this.retryMs, maxMs: this.maxRetryMs }));
      }
    }
  }

  /** A retry's wait; `close` ends it at once, so no loop outlives the vault. */
  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      this.endPause = resolve;
      this.retryTimer = setTimeout(resolve, ms);
    });
  }

  private wakeIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const wake of waiters) wake();
  }

  private async withinReadWait(work: Promise<void>): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const reason = this.lastError instanceof Error ? this.lastError.message : 'it is still catching up';
        reject(
          new BackendUnavailableError(
            `The search index is not up to date with the notes: ${reason}. Try again shortly.`,
            {},
          ),
        );
      }, this.readWaitMs);
      // A waiting read keeps its caller alive, not the process: a closed vault must let it exit.
      timer.unref();
    });
    try {
      await Promise.race([work, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** The search index as readers see it: every read waits for the outbox first; writes go through it. */
export function settledSearchIndex(index: SearchIndex, outbox: IndexOutbox): SearchIndex {
  const sql = index.sql?.bind(index);
  const finishBackground = index.finishBackground?.bind(index);
  return forwardingSearchIndex(index, {
    async search(query: SearchQuery): Promise<SearchPage> {
      await outbox.settled();
      return index.search(query);
    },
    upsert: async (note) => outbox.upsert(note),
    remove: async (id) => outbox.remove(id),
    close: () => outbox.close(),
    ...(finishBackground
      ? {
          async finishBackground(progress?: ProgressReporter) {
            // The catch-up decides what is left to do in the background: it comes first.
            await outbox.idle();
            return finishBackground(progress);
          },
        }
      : {}),
    ...(sql
      ? {
          async sql(query: string, params?: SqlParams, options?: SqlQueryOptions) {
            await outbox.settled();
            return sql(query, params, options);
          },
        }
      : {}),
  });
}

/**
 * A search index beside the store, kept in step with it (KernelExtras.keepIndexInStep): caught
 * up with the store in the background from the open, its writes queued and retried, its reads
 * waiting for what was acknowledged before them.
 */
export function keepInStep(index: SearchIndex, store: ReconcileSource, logger: Logger): SearchIndex {
  const outbox = new IndexOutbox(index, logger);
  outbox.reconcileWith(store);
  return settledSearchIndex(index, outbox);
}
