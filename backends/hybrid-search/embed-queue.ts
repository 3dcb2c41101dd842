/**
 * Embeds passages behind the index's answers. The index stores a passage's keywords at once and
 * hands its text here; vectors come back through `onVectors` as batches finish. Two lanes: a
 * write's passages (`urgent`: a search waits a moment for them, so a note just written is found
 * by meaning) go before the catch-up of a whole vault (the backlog, which no search waits for).
 * Up to `concurrency` batches run at once — one per embedding thread — so two threads use both
 * cores. Keyed by the passage hash: a passage queued twice is embedded once; one no longer
 * needed is dropped (`forget`).
 */
import type { Logger } from '../../kernel/index.js';
import { backoff } from '../../toolkit/backoff.js';
import type { BackgroundReport } from '../../kernel/backend.js';
import { noProgress, type ProgressReporter } from '../../kernel/progress.js';
import { embedInBatches, type Embedder } from '../../toolkit/embedding/embedder.js';

export interface EmbedQueueOptions {
  embedder: Embedder;
  /** Called with each finished batch (hashes and their unit vectors, in order); the next batch of its slot waits for it. */
  onVectors(hashes: string[], vectors: Float32Array[]): void | Promise<void>;
  logger?: Logger;
  /** Passages per embed call. Smaller keeps a query's own embedding from waiting long behind a batch. */
  batchSize?: number;
  /** Batches in flight at once; default: the embedder's `concurrency`, else 1. */
  concurrency?: number;
}

const RETRY_MS = 500;
const MAX_RETRY_MS = 30_000;
/**
 * Failed batches in a row after which nobody waits for the queue any more (`idle`, `finish`):
 * an embedder that is down (an endpoint stopped, a model that will not load) would hold a
 * waiting `notekernel index` or `wait_for_vectors` search for ever. The queue keeps retrying.
 */
const WAIT_FAILURES = 3;

export class EmbedQueue {
  private readonly urgent = new Map<string, string>();
  private readonly backlog = new Map<string, string>();
  private readonly inFlight = new Map<string, boolean>();
  private running = 0;
  private failures = 0;
  private lastError: string | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private closed = false;
  private pumpScheduled = false;
  private embeddedCount = 0;
  private waiters: Array<{ urgentOnly: boolean; wake: () => void }> = [];
  private readonly listeners = new Set<(count: number) => void>();
  private readonly batchSize: number;
  private readonly concurrency: number;

  constructor(private readonly options: EmbedQueueOptions) {
    this.batchSize = options.batchSize ?? 16;
    this.concurrency = Math.max(1, options.concurrency ?? options.embedder.concurrency ?? 1);
  }

  /** Passages still to embed (queued and in flight). */
  get pending(): number {
    return this.urgent.size + this.backlog.size + this.inFlight.size;
  }

  /** Why the last batch failed, while the embedder keeps failing (cleared by the next batch that succeeds). */
  get failure(): string | undefined {
    return this.failures > 0 ? this.lastError : undefined;
  }

  /** Texts embedded since the queue was made. */
  get embedded(): number {
    return this.embeddedCount;
  }

  add(hash: string, text: string, urgent: boolean): void {
    if (this.closed || this.inFlight.has(hash) || this.urgent.has(hash)) return;
    if (urgent) {
      this.backlog.delete(hash);
      this.urgent.set(hash, text);
    } else if (!this.backlog.has(hash)) this.backlog.set(hash, text);
    // After the caller's loop: the passages of one write (or one catch-up group) fill one batch.
    if (!this.pumpScheduled) {
      this.pumpScheduled = true;
      queueMicrotask(() => {
        this.pumpScheduled = false;
        this.pump();
      });
    }
  }

  /** No passage holds this text any more: do not embed it (one already in flight is ignored on return). */
  forget(hash: string): void {
    this.urgent.delete(hash);
    this.backlog.delete(hash);
    this.wakeWaiters();
  }

  /** Resolves when written passages have their vectors, or after `ms`, whichever is first. */
  async urgentDone(ms: number): Promise<void> {
    // A failing embedder will not bring them within the wait: the search answers at once.
    if (!this.hasUrgent() || this.failures > 0) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      new Promise<void>((wake) => this.waiters.push({ urgentOnly: true, wake })),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, ms);
        timer.unref();
      }),
    ]);
    clearTimeout(timer);
  }

  /** SearchIndex.finishBackground for either engine: waits for the queue, then how much it embedded. */
  async finish(progress?: ProgressReporter): Promise<BackgroundReport> {
    const started = performance.now();
    await this.idle(progress);
    return { done: this.embedded, ms: Math.round(performance.now() - started) };
  }

  /** Resolves when nothing is left to embed (or the embedder has failed WAIT_FAILURES times in a row), ticking `progress` per passage embedded. */
  async idle(progress: ProgressReporter = noProgress): Promise<number> {
    if (this.pending === 0 || this.failures >= WAIT_FAILURES) return 0;
    let done = 0;
    const tick = (count: number) => {
      done += count;
      progress.tick(count);
    };
    progress.start('embedding passages', this.pending);
    this.listeners.add(tick);
    try {
      await new Promise<void>((wake) => this.waiters.push({ urgentOnly: false, wake }));
    } finally {
      this.listeners.delete(tick);
      progress.stop();
    }
    return done;
  }

  /** Stops taking batches; one in flight finishes into `onVectors`, which the owner ignores once closed. */
  close(): void {
    this.closed = true;
    clearTimeout(this.retryTimer);
    this.urgent.clear();
    this.backlog.clear();
    this.inFlight.clear();
    this.wakeWaiters();
  }

  private hasUrgent(): boolean {
    return this.urgent.size > 0 || [...this.inFlight.values()].some(Boolean);
  }

  private pump(): void {
    while (
      !this.closed &&
      this.retryTimer === undefined &&
      this.running < this.concurrency &&
      this.urgent.size + this.backlog.size > 0
    ) {
      const batch: Array<[string, string, boolean]> = [];
      // Near the end the rest is shared out, so no thread idles while another embeds a last full batch.
      const size = Math.min(this.batchSize, Math.ceil((this.urgent.size + this.backlog.size) / this.concurrency));
      for (const [lane, urgent] of [
        [this.urgent, true],
        [this.backlog, false],
      ] as const) {
        for (const [hash, text] of lane) {
          if (batch.length >= size) break;
          lane.delete(hash);
          batch.push([hash, text, urgent]);
        }
      }
      for (const [hash, , urgent] of batch) this.inFlight.set(hash, urgent);
      this.running += 1;
      void this.run(batch);
    }
  }

  private async run(batch: Array<[string, string, boolean]>): Promise<void> {
    const hashes = batch.map(([hash]) => hash);
    let threadFree = false;
    try {
      const vectors = await embedInBatches(
        this.options.embedder,
        batch.map(([, text]) => text),
        batch.length,
      );
      if (this.closed) return;
      // The thread takes its next batch now, not after this one is stored: it would idle meanwhile.
      threadFree = true;
      this.running -= 1;
      this.pump();
      this.failures = 0;
      this.embeddedCount += vectors.length;
      await this.options.onVectors(hashes, vectors);
      for (const listener of this.listeners) listener(vectors.length);
    } catch (err) {
      if (this.closed) return;
      // Back into their lanes, retried after a pause (a model that failed to load may load next time).
      for (const [hash, text, urgent] of batch) (urgent ? this.urgent : this.backlog).set(hash, text);
      this.failures += 1;
      this.lastError = err instanceof Error ? err.message : String(err);
      if (this.failures === 1)
        this.options.logger?.warn({ err }, 'embedding failed; keyword search is unaffected, retrying');
      const delay = backoff(this.failures, { baseMs: RETRY_MS, maxMs: MAX_RETRY_MS });
      this.retryTimer = setTimeout(() => {
        this.retryTimer = undefined;
        this.pump();
      }, delay);
      this.retryTimer.unref();
    } finally {
      for (const hash of hashes) this.inFlight.delete(hash);
      if (!threadFree) this.running -= 1;
      this.wakeWaiters();
      this.pump();
    }
  }

  private wakeWaiters(): void {
    // While the embedder fails, a search does not wait for a write's passages, nor anybody for the backlog past WAIT_FAILURES.
    const urgentLeft = this.hasUrgent() && this.failures === 0;
    const anyLeft = this.pending > 0 && !this.closed && this.failures < WAIT_FAILURES;
    const still: typeof this.waiters = [];
    for (const waiter of this.waiters) {
      if ((waiter.urgentOnly ? urgentLeft : anyLeft) && !this.closed) still.push(waiter);
      else waiter.wake();
    }
    this.waiters = still;
  }
}
