/**
 * Pulls Simperium into the cache. Without a cursor: a full sync (index pages of 100 with data),
 * resumable — the page mark and the listing's `current` are stored after each page, so an
 * interrupted sync continues where it stopped. With a cursor: a delta sync (`since` = cursor,
 * pages of 500), then an id-only listing to find notes deleted elsewhere (`since` never reports
 * deletions). The cursor moves only once a listing has been applied completely, to the
 * `current` seen at its start, so nothing changed meanwhile is skipped.
 */
import type { ExternalChange, RefreshReport, RemoteSyncStats } from '../../kernel/backend.js';
import type { Logger } from '../../kernel/logger.js';
import type { NoteCache, UpsertOutcome } from './cache/note-cache.js';
import type { IndexPage, SimperiumClient } from './client/simperium-client.js';
import type { Unreachable } from './client/transport.js';
import { noteOf, summaryOf } from './note-object.js';

const CURSOR = 'backend_cursor';
const FULL_MARK = 'full_sync_mark';
const FULL_CURRENT = 'full_sync_current';
const LAST_SYNC = 'last_sync';
const LAST_SYNC_AT = 'last_sync_at';
const LAST_ERROR = 'last_error';
const SYNCS = 'syncs';
const FAILED_SYNCS = 'failed_syncs';
const FEED_ANOMALIES = 'feed_anomalies';
const LAST_FEED_ANOMALY = 'last_feed_anomaly';

/** An object Simperium offered that was older than, or conflicting with, the version the cache holds. */
export interface FeedAnomaly {
  id: string;
  /** `older`: a version below the cached one (a late page, a rewinding feed); `conflicting`: the cached version number with other content. */
  kind: 'older' | 'conflicting';
  offered: number;
  held: number;
  /** `sync` (an index page) or `read` (an object fetched by get or before a write). */
  source: 'sync' | 'read';
  at: string;
}

export interface SyncResult extends RefreshReport {
  full: boolean;
}

/** get_stats: the kernel's RemoteSyncStats plus what this backend watches for. */
export interface SimplenoteSyncStats extends RemoteSyncStats {
  /** How many objects Simperium offered behind the cache (kept out), and the last one. */
  feedAnomalies: number;
  lastFeedAnomaly?: FeedAnomaly;
  /** The background syncs: on the interval, backing off after failures, or off; refused credentials. */
  sync?: SyncLoopState;
  /** While Simperium is taken for unreachable (requests fail fast): since when, why, until when. */
  unreachable?: Unreachable;
}

export class Syncer {
  constructor(
    private readonly client: SimperiumClient,
    private readonly cache: NoteCache,
    private readonly logger: Logger,
    /** Called after each applied page, so the owner can persist progress. */
    private readonly onProgress: () => void,
    /** Told of every change a sync brings in (another device's); undefined while nobody watches. */
    private readonly changes: () => ((change: ExternalChange) => void) | undefined = () => undefined,
  ) {}

  get cursor(): string | undefined {
    return this.cache.meta(CURSOR);
  }

  private running: Promise<unknown> = Promise.resolve();

  /** Resolves once no sync is running (close waits for it before releasing the cache). */
  async idle(): Promise<void> {
    await this.running.catch(() => undefined);
  }

  /** One sync at a time: a refresh called during a background round runs after it. */
  async sync(): Promise<SyncResult> {
    return this.queue(() => (this.cursor === undefined ? this.full() : this.delta(this.cursor)));
  }

  /** Empties the cache and fills it again by a full sync, after any running sync. */
  async reset(): Promise<SyncResult> {
    return this.queue(() => {
      const counters = [SYNCS, FAILED_SYNCS, FEED_ANOMALIES, LAST_FEED_ANOMALY].map(
        (key) => [key, this.cache.meta(key)] as const,
      );
      this.cache.transaction(() => {
        this.cache.clear();
        for (const [key, value] of counters) this.cache.setMeta(key, value);
      });
      this.logger.info('simplenote cache reset; full sync');
      return this.full();
    });
  }

  /** The cache's state and the sync metrics kept in sync_metadata. */
  stats(): SimplenoteSyncStats {
    const lastAnomaly = this.cache.meta(LAST_FEED_ANOMALY);
    const last = this.cache.meta(LAST_SYNC);
    const lastAt = this.cache.meta(LAST_SYNC_AT);
    const lastError = this.cache.meta(LAST_ERROR);
    const cursor = this.cursor;
    return {
      notes: this.cache.count(),
      trashed: this.cache.trashedCount(),
      ...(cursor ? { cursor } : {}),
      ...(lastAt ? { lastSyncAt: lastAt } : {}),
      ...(last ? { lastSync: JSON.parse(last) as SyncResult } : {}),
      ...(lastError ? { lastError } : {}),
      syncs: Number(this.cache.meta(SYNCS) ?? 0),
      failedSyncs: Number(this.cache.meta(FAILED_SYNCS) ?? 0),
      feedAnomalies: Number(this.cache.meta(FEED_ANOMALIES) ?? 0),
      ...(lastAnomaly ? { lastFeedAnomaly: JSON.parse(lastAnomaly) as FeedAnomaly } : {}),
    };
  }

  /**
   * Simperium offered an object behind the cache (older, or the cached version with other
   * content): the cache kept its newer row; this is logged and counted for get_stats.
   */
  feedAnomaly(id: string, offered: number, outcome: UpsertOutcome, source: FeedAnomaly['source']): void {
    const anomaly: FeedAnomaly = {
      id,
      kind: outcome.kind === 'older' ? 'older' : 'conflicting',
      offered,
      held: outcome.held ?? 0,
      source,
      at: new Date().toISOString(),
    };
    this.logger.warn(
      anomaly,
      anomaly.kind === 'older'
        ? 'simperium offered an older version than the cache holds; kept the newer one'
        : 'simperium offered the cached version number with other content; kept the cached one',
    );
    this.cache.setMeta(FEED_ANOMALIES, String(Number(this.cache.meta(FEED_ANOMALIES) ?? 0) + 1));
    this.cache.setMeta(LAST_FEED_ANOMALY, JSON.stringify(anomaly));
  }

  /** One sync at a time, each recorded in sync_metadata. */
  private queue(run: () => Promise<SyncResult>): Promise<SyncResult> {
    const next = this.running
      .catch(() => undefined)
      .then(run)
      .then(
        (result) => {
          this.cache.setMeta(LAST_SYNC, JSON.stringify(result));
          this.cache.setMeta(LAST_SYNC_AT, new Date().toISOString());
          this.cache.setMeta(LAST_ERROR, undefined);
          this.cache.setMeta(SYNCS, String(Number(this.cache.meta(SYNCS) ?? 0) + 1));
          this.onProgress();
          return result;
        },
        (err: unknown) => {
          this.cache.setMeta(LAST_ERROR, (err as Error).message);
          this.cache.setMeta(FAILED_SYNCS, String(Number(this.cache.meta(FAILED_SYNCS) ?? 0) + 1));
          this.onProgress();
          throw err;
        },
      );
    this.running = next;
    return next;
  }

  private async full(): Promise<SyncResult> {
    const started = Date.now();
    const resumeMark = this.cache.meta(FULL_MARK);
    let current = this.cache.meta(FULL_CURRENT);
    const seen = new Set<string>();
    let indexed = 0;
    for await (const page of this.client.index({
      limit: 100,
      data: true,
      ...(resumeMark ? { mark: resumeMark } : {}),
    })) {
      current ??= page.current;
      indexed += this.apply(page.entries, seen);
      this.cache.setMeta(FULL_CURRENT, current);
      this.cache.setMeta(FULL_MARK, page.mark);
      this.onProgress();
    }
    // A sync that began from the first page saw every live note; a resumed one did not, so it
    // asks for the id list instead.
    const removed = resumeMark ? this.removeVanished(await this.liveIds()) : this.removeVanished(seen);
    this.cache.setMeta(CURSOR, current ?? '');
    this.cache.setMeta(FULL_CURRENT, undefined);
    this.onProgress();
    this.logger.info(
      { notes: this.cache.count(), indexed, removed, resumed: Boolean(resumeMark), ms: Date.now() - started },
      'simplenote full sync done',
    );
    return { full: true, scanned: this.cache.count(), indexed, removed, skipped: [], ms: Date.now() - started };
  }

  private async delta(cursor: string): Promise<SyncResult> {
    const started = Date.now();
    let current: string | undefined;
    let indexed = 0;
    for await (const page of this.client.index({ limit: 500, data: true, ...(cursor ? { since: cursor } : {}) })) {
      current ??= page.current;
      indexed += this.apply(page.entries);
    }
    const live = await this.liveIds();
    const removed = this.removeVanished(live);
    if (current !== undefined) this.cache.setMeta(CURSOR, current);
    this.onProgress();
    return { full: false, scanned: live.size, indexed, removed, skipped: [], ms: Date.now() - started };
  }

  /** Writes one page into the cache in one transaction; returns how many rows changed. */
  private apply(entries: IndexPage['entries'], seen?: Set<string>): number {
    return this.cache.transaction(() => {
      let changed = 0;
      const emit = this.changes();
      for (const entry of entries) {
        seen?.add(entry.id);
        if (!entry.d) continue;
        const before = emit && this.cache.get(entry.id);
        const outcome = this.cache.upsert(entry.id, entry.v, entry.d);
        if (outcome.kind !== 'written') {
          if (outcome.kind !== 'unchanged') this.feedAnomaly(entry.id, entry.v, outcome, 'sync');
          continue;
        }
        changed += 1;
        emit?.({
          kind: 'written',
          note: noteOf(entry.id, entry.v, entry.d),
          ...(before ? { previous: summaryOf(before.id, before.version, before.object) } : {}),
        });
      }
      return changed;
    });
  }

  private async liveIds(): Promise<Set<string>> {
    const ids = new Set<string>();
    for await (const page of this.client.index({ limit: 1000 })) for (const entry of page.entries) ids.add(entry.id);
    return ids;
  }

  private removeVanished(live: Set<string>): number {
    let removed = 0;
    const emit = this.changes();
    for (const id of this.cache.ids()) {
      if (live.has(id)) continue;
      const before = emit && this.cache.get(id);
      if (!this.cache.remove(id)) continue;
      removed += 1;
      emit?.({
        kind: 'deleted',
        id,
        ...(before ? { previous: summaryOf(before.id, before.version, before.object) } : {}),
      });
    }
    return removed;
  }
}

/** What `get_stats` shows of the background syncs (sync-loop.ts keeps it). */
export interface SyncLoopState {
  /** `ok`: on the interval; `backing-off`: the last cycle(s) failed; `off`: no timer (SYNC_INTERVAL_SECONDS=0). */
  state: 'ok' | 'backing-off' | 'off';
  intervalSeconds: number;
  consecutiveFailures: number;
  /** When the next cycle runs (ISO-8601), while the timer runs. */
  nextSyncAt?: string;
  /** Present while Simplenote refuses the login: what it said. */
  credentialsRefused?: string;
}
