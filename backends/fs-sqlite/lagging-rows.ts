/**
 * Index rows a stored write could not update (a full disk, an index file it may not write). The
 * note is on disk, so the write is reported done (decision 038); its row waits here and is
 * retried with backoff until the index takes it, and every answer meanwhile says that listings
 * and searches may lag. A process that ends first loses nothing: the next open's refresh
 * compares every file with its row.
 */
import { backoff } from '../../toolkit/backoff.js';
import type { FaultReporter } from '../../kernel/faults.js';

const FIRST_RETRY_MS = 250;
const LAST_RETRY_MS = 30_000;
const SOURCE = 'index rows';

export class LaggingRows {
  private readonly ids = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  /** Retries failed in a row; the next wait doubles with each. */
  private failures = 0;
  private closed = false;

  constructor(
    /** Brings one note's row level with its file (or drops it); throws while the index cannot be written. */
    private readonly repair: (id: string) => Promise<void>,
    private readonly faults: FaultReporter,
  ) {}

  get size(): number {
    return this.ids.size;
  }

  add(id: string, err: unknown): void {
    this.ids.add(id);
    this.faults.report(
      SOURCE,
      err,
      'Notes written meanwhile are stored; listings and searches may miss them until the index can be written again (retried automatically).',
    );
    this.schedule();
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
  }

  private schedule(): void {
    if (this.timer || this.closed) return;
    this.timer = setTimeout(
      () => void this.retry(),
      backoff(this.failures + 1, { baseMs: FIRST_RETRY_MS, maxMs: LAST_RETRY_MS }),
    );
    this.timer.unref();
  }

  private async retry(): Promise<void> {
    this.timer = undefined;
    for (const id of [...this.ids]) {
      if (this.closed) return;
      try {
        await this.repair(id);
        this.ids.delete(id);
      } catch {
        // still failing: the fault stays reported, the next try waits longer
        this.failures += 1;
        this.schedule();
        return;
      }
    }
    this.failures = 0;
    if (this.ids.size) this.schedule();
    else this.faults.clear(SOURCE);
  }
}
