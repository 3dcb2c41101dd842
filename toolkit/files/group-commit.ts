/**
 * Group commit: items added while a commit is pending share it, so a burst of single-note
 * writes costs one transaction, not one each. Each caller still waits for its own item; when a
 * shared commit fails, every item is retried alone so one bad item fails only its own caller.
 */
interface Waiting<T> {
  item: T;
  resolve: () => void;
  reject: (err: unknown) => void;
}

/** Starts `flush` on the next turn of the event loop, after the I/O callbacks of this one. */
export const nextTurn = (flush: () => Promise<void>): Promise<void> =>
  new Promise<void>((resolve) => setImmediate(resolve)).then(flush);

export class GroupCommit<T> {
  private waiting: Array<Waiting<T>> = [];
  private scheduled = false;

  /**
   * @param commit writes all items at once (in one transaction), or throws.
   * @param schedule when the pending commit starts: the next turn by default, or behind a queue.
   */
  constructor(
    private readonly commit: (items: readonly T[]) => void | Promise<void>,
    private readonly schedule: (flush: () => Promise<void>) => Promise<void> = nextTurn,
  ) {}

  add(item: T): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      void this.schedule(() => this.flush());
    });
  }

  /** Commits what is waiting now (also called before the resource behind `commit` closes). */
  async flush(): Promise<void> {
    this.scheduled = false;
    const batch = this.waiting;
    this.waiting = [];
    if (!batch.length) return;
    try {
      await this.commit(batch.map((w) => w.item));
      for (const w of batch) w.resolve();
    } catch (err) {
      if (batch.length === 1) return (batch[0] as Waiting<T>).reject(err);
      for (const w of batch) {
        try {
          await this.commit([w.item]);
          w.resolve();
        } catch (single) {
          w.reject(single);
        }
      }
    }
  }
}
