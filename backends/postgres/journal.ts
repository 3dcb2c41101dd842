/**
 * The operation journal (decision 025) in the database. Many processes share a vault here, so an
 * open entry is not by itself a dead process's: each entry names its owner (the backend process
 * id and start time of the store's feed connection), and `unfinished` returns only entries whose
 * owner's session is gone from `pg_stat_activity`, which recovery may then finish or roll back.
 */
import type { JournalRecord, JournalStorage } from '../../kernel/journal.js';
import type { Logger } from '../../kernel/logger.js';
import { type PgPool, storeError } from './driver.js';

export interface JournalWindow {
  keep: number;
  maxAgeMs: number;
}

export class PgJournal<E extends JournalRecord = JournalRecord> implements JournalStorage<E> {
  /** `pid:backend_start` of the session that owns this process's entries; set once the feed connects. */
  owner = 'unknown';
  private readonly pendingSteps = new Set<Promise<unknown>>();

  constructor(
    private readonly pool: PgPool,
    private readonly S: string,
    private readonly vault: string,
    private readonly window: JournalWindow,
    private readonly url: string | undefined,
    private readonly logger: Logger,
  ) {}

  async begin(entry: E): Promise<void> {
    await this.run(async () => {
      await this.prune();
      await this.pool.query(
        `INSERT INTO ${this.S}.journal (vault, id, state, owner, entry) VALUES ($1, $2, $3, $4, $5::jsonb)`,
        [this.vault, entry.id, entry.state, this.owner, JSON.stringify(entry)],
      );
    });
  }

  progress(entryId: string, step: number, result: NonNullable<E['results']>[number]): void {
    // A hint for recovery, not awaited by the operation: a lost one costs a re-check, never a note.
    const written = this.pool
      .query(
        `INSERT INTO ${this.S}.journal_steps (vault, entry_id, step, result) VALUES ($1, $2, $3, $4::jsonb)
         ON CONFLICT (vault, entry_id, step) DO UPDATE SET result = excluded.result`,
        [this.vault, entryId, step, JSON.stringify(result)],
      )
      .catch((err: unknown) =>
        this.logger.warn({ err: storeError(err, this.url), entry: entryId, step }, 'journal step not recorded'),
      );
    this.pendingSteps.add(written);
    void written.finally(() => this.pendingSteps.delete(written));
  }

  async finish(entry: E): Promise<void> {
    await Promise.all(this.pendingSteps);
    await this.run(async () => {
      await this.pool.query(`UPDATE ${this.S}.journal SET state = $3, entry = $4::jsonb WHERE vault = $1 AND id = $2`, [
        this.vault,
        entry.id,
        entry.state,
        JSON.stringify(entry),
      ]);
      await this.pool.query(`DELETE FROM ${this.S}.journal_steps WHERE vault = $1 AND entry_id = $2`, [
        this.vault,
        entry.id,
      ]);
    });
  }

  async unfinished(): Promise<E[]> {
    return this.run(async () => {
      const open = await this.pool.query<{ entry: E }>(
        `SELECT j.entry FROM ${this.S}.journal j WHERE j.vault = $1 AND j.state = 'pending'
           AND NOT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.pid::text || ':' || a.backend_start::text = j.owner)
         ORDER BY j.id`,
        [this.vault],
      );
      const entries: E[] = [];
      for (const { entry } of open.rows) {
        const steps = await this.pool.query<{ step: number; result: object }>(
          `SELECT step, result FROM ${this.S}.journal_steps WHERE vault = $1 AND entry_id = $2 ORDER BY step`,
          [this.vault, entry.id],
        );
        const results = entry.results ? [...entry.results] : [];
        for (const { step, result } of steps.rows) results[step] = result;
        entries.push({ ...entry, results } as E);
      }
      return entries;
    });
  }

  async list(): Promise<E[]> {
    return this.run(async () => {
      const rows = await this.pool.query<{ entry: E }>(
        `SELECT entry FROM ${this.S}.journal WHERE vault = $1 ORDER BY id DESC`,
        [this.vault],
      );
      return rows.rows.map((r) => r.entry);
    });
  }

  /** Closed entries past the window (by rank or by the time their id starts with) are dropped. */
  private async prune(): Promise<void> {
    // Entry ids start with their ISO time without separators (toolkit/plans: newEntryId).
    const cutoff = new Date(Date.now() - this.window.maxAgeMs).toISOString().replace(/[-:.]/g, '');
    await this.pool.query(
      `DELETE FROM ${this.S}.journal j USING (
         SELECT id, row_number() OVER (ORDER BY id DESC) AS rank FROM ${this.S}.journal WHERE vault = $1 AND state <> 'pending'
       ) old WHERE j.vault = $1 AND j.id = old.id AND (old.rank > $2 OR j.id < $3)`,
      [this.vault, this.window.keep, cutoff],
    );
  }

  private async run<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      throw storeError(err, this.url, true);
    }
  }
}
