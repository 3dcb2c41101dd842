/**
 * The first scan of a memory root, run behind the open (decisions 026, 034): after a delay, or at
 * once when a call needs the entries, so a client's `initialize` and `tools/list` are answered
 * before the scan and the history walk compete with them for the one JavaScript thread. Reads
 * that come before it (`early`) are answered from the files directly, and the scan waits for them.
 */
export class BackgroundOpen {
  /** The scan itself; every call that needs the entry index waits for it (`ready()`). */
  private opening: Promise<void> = Promise.resolve();
  /** Starts the scan now when it still waits for its delay. */
  private startNow: (() => void) | undefined;
  /** Run when the scan begins, before it reads anything (watchers); undefined once begun. */
  private beforeBegin: Array<() => void> | undefined = [];
  /** Reads answered before the scan, in flight: the scan begins after them. */
  private readonly earlyReads = new Set<Promise<unknown>>();
  /** The scan has finished (or failed, or none was asked for): reads go through the entry index. */
  settled = true;

  /**
   * Runs `open` after `delayMs`, or at once when `ready()` is called first. A failed scan fails
   * the calls waiting on `ready()` with its reason.
   */
  schedule(open: () => Promise<void>, delayMs = 0): void {
    this.settled = false;
    let begin: () => void = () => {};
    const begun = new Promise<void>((resolve) => (begin = resolve));
    const timer = setTimeout(() => this.startNow?.(), delayMs);
    timer.unref();
    this.startNow = () => {
      clearTimeout(timer);
      this.startNow = undefined;
      begin();
    };
    this.opening = begun.then(async () => {
      if (this.earlyReads.size) {
        await Promise.allSettled([...this.earlyReads]);
        // Their answers are written first: the watch started below holds the thread for a while.
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      const waiting = this.beforeBegin ?? [];
      this.beforeBegin = undefined;
      for (const fn of waiting) fn();
      return open();
    });
    const settled = () => {
      this.settled = true;
    };
    this.opening.then(settled, settled); // a failure is reported by the calls that wait on it
  }

  /** Runs `fn` when the scan begins (at once if it has): before it reads anything. */
  whenBegins(fn: () => void): void {
    if (this.beforeBegin) this.beforeBegin.push(fn);
    else fn();
  }

  /** The scan, started now if it was still waiting for its delay. */
  ready(): Promise<void> {
    this.startNow?.();
    return this.opening;
  }

  /** A read answered before the scan: the scan, when due, begins after it. */
  early<T>(read: Promise<T>): Promise<T> {
    this.earlyReads.add(read);
    void read.finally(() => this.earlyReads.delete(read)).catch(() => {});
    return read;
  }
}
