/**
 * Rebuilds a damaged index while the vault serves (index-recovery.ts has the mechanics). A
 * corruption error seen on any statement schedules one `quick_check`; when it fails, the index
 * is emptied in place and refilled from the files as a refresh: calls that need index rows
 * wait for it, as at start-up, and reads of note files go on.
 */
import type { RefreshReport } from '../../kernel/backend.js';
import type { Logger } from '../../kernel/logger.js';
import type { IndexDb } from './index-db.js';
import { quickCheckOffThread } from './index-recovery.js';
import type { IndexFreshness } from './index-freshness.js';
import type { PluginTables } from './plugin-tables.js';

type Refill = (pause: () => Promise<void>) => Promise<RefreshReport>;

/**
 * The opening check waits this long after the opening refresh: reading every page competed for
 * the CPU with a fresh server's first answers and its links catch-up (index checked 401 → 65 ms,
 * link index ready 317 → 223 ms in the bench), and a statement that meets a damaged page sooner
 * starts a check at once anyway (`suspect`).
 */
const OPENING_CHECK_DELAY_MS = 2_000;

export class IndexHealing {
  private checking: Promise<void> | undefined;
  private openingCheck: NodeJS.Timeout | undefined;
  /** Damage reported while a check was under way: that check may have read the file before it. */
  private suspectedDuring: unknown;
  private closed = false;

  constructor(
    private readonly db: IndexDb,
    private readonly tables: PluginTables,
    private readonly freshness: IndexFreshness,
    private readonly refill: Refill,
    private readonly logger: Logger,
    /** Run after a rebuild: what the opening refresh does afterwards (search upkeep). */
    private readonly afterwards: () => void,
  ) {
    db.onCorruption = (err) => this.suspect(err);
  }

  /** A statement failed with a corruption error: check once, soon (never inside that statement). */
  suspect(err: unknown): void {
    if (this.closed) return;
    if (this.checking) {
      this.suspectedDuring ??= err ?? new Error('index damage reported');
      return;
    }
    this.logger.warn({ err }, 'the index reported damage; checking it');
    this.checking = new Promise<void>((resolve) => setImmediate(resolve))
      .then(() => this.checkAndRebuild())
      .finally(() => this.checked());
  }

  /** A check ended: damage reported meanwhile gets a check of its own. */
  private checked(): void {
    this.checking = undefined;
    const pending = this.suspectedDuring;
    this.suspectedDuring = undefined;
    if (pending !== undefined) this.suspect(pending);
  }

  /**
   * The opening check, off the event loop: a damaged page passes the open (schema, vault root)
   * and fails only the query that touches it, at every start; quick_check reads every page.
   */
  checkInBackground(delayMs = OPENING_CHECK_DELAY_MS): void {
    if (delayMs > 0) {
      this.openingCheck = setTimeout(() => this.checkInBackground(0), delayMs);
      this.openingCheck.unref();
      return;
    }
    if (this.checking || this.closed) return;
    this.checking = quickCheckOffThread(this.db.file)
      .then((problems) => (problems.length ? this.checkAndRebuild() : undefined))
      .finally(() => this.checked());
  }

  /** Checks the file; when damaged, empties it and refills it from the files. Resolves when done. */
  async checkAndRebuild(): Promise<void> {
    if (this.closed) return;
    const problems = this.db.check();
    if (problems.length === 0) return;
    const started = performance.now();
    this.logger.error(
      { problems: problems.slice(0, 3) },
      'the index is damaged; a copy is kept and it is rebuilt from the files',
    );
    try {
      await this.freshness.queue(async (pause) => {
        const kept = this.db.rebuildInPlace();
        this.tables.replayMigrations();
        const report = await this.refill(pause);
        this.afterwards();
        this.tables.announceRebuilt();
        this.logger.info(
          { kept, indexed: report.indexed, ms: Math.round(performance.now() - started) },
          'index rebuilt from the files',
        );
        return report;
      });
    } catch (err) {
      this.logger.error({ err }, 'the index could not be rebuilt; run `notekernel index` or reopen the vault');
    }
  }

  /** No new check starts; resolves when one under way has ended (the freshness close stops a rebuild). */
  close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.openingCheck);
    return this.checking ?? Promise.resolve();
  }
}
