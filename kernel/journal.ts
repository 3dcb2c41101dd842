/**
 * Where a store keeps the operation journal (decision 025): a multi-note operation's whole plan is
 * written durably before any note changes, so an entry still open at the next start belongs to a
 * process that died mid-way and is finished or rolled back. The entries are the toolkit's
 * (toolkit/plans/journal.ts); a store keeps them as given and reads only these fields. A store
 * that cannot keep a journal (a remote one) leaves `NoteStore.journal` out.
 */
export interface JournalRecord {
  /** Starts with the entry's start time, so ids sort by time. */
  id: string;
  /** `pending` while the operation runs: such an entry is kept and reported by `unfinished`. */
  state: string;
  /** One per step, as far as the operation got to record. */
  results?: object[];
}

export interface JournalStorage<E extends JournalRecord = JournalRecord> {
  /** Durable before it returns: a crash after it leaves the entry for the next start. */
  begin(entry: E): Promise<void>;
  /** Records one step's outcome as soon as it is known (a hint for recovery; not synced). */
  progress(entryId: string, step: number, result: NonNullable<E['results']>[number]): void;
  /** Closes the entry with its results and final state; closed entries may be pruned later. */
  finish(entry: E): Promise<void>;
  /** Open entries, oldest first, with every progress record folded into `results`. */
  unfinished(): Promise<E[]>;
  /** Every kept entry, newest first. */
  list(): Promise<E[]>;
}
