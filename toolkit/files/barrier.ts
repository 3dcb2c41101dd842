/**
 * Holds a group of concurrent tasks at one point until every one has reached it or dropped out:
 * a batch of writes lets all its temp files be created before the first fsync starts.
 */
export interface BarrierPasser {
  /** Waits until every party has passed or left; only a party's first call waits. */
  pass(): Promise<void>;
  /** Counts this party out if it never passed (it failed earlier, or had nothing to wait for). */
  leave(): void;
}

export class Barrier {
  private remaining: number;
  private release!: () => void;
  private readonly opened = new Promise<void>((resolve) => (this.release = resolve));

  constructor(parties: number) {
    this.remaining = parties;
    if (parties <= 0) this.release();
  }

  /** One party's handle. */
  passer(): BarrierPasser {
    let counted = false;
    const count = (): void => {
      if (counted) return;
      counted = true;
      if (--this.remaining === 0) this.release();
    };
    return {
      pass: () => {
        if (counted) return Promise.resolve();
        count();
        return this.opened;
      },
      leave: count,
    };
  }
}
