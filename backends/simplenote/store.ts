/**
 * A NoteStore over Simplenote. Writes are backend-first: a write succeeds only once Simperium
 * has confirmed it, then the cache takes the object Simperium returned. `get` asks Simperium
 * (the truth, one round trip) and refreshes the cache; `list`, `count` and search read the cache,
 * which `refresh()` brings up to date. The compare-and-swap on the content hash reads the note
 * from Simperium under a per-note lock, then posts against that version, so within this process
 * exactly one of several writers holding one hash wins.
 */
import { randomUUID } from 'node:crypto';
import { ContentHashMismatchError, NotFoundError } from '../../kernel/errors.js';
import type {
  ExternalChange,
  NoteStore,
  RefreshReport,
  RemoteSync,
  SearchIndex,
  SearchPage,
  SearchQuery,
} from '../../kernel/backend.js';
import { BackendUnavailableError, TimeoutError } from '../../kernel/errors.js';
import type { Logger } from '../../kernel/logger.js';
import type { ListQuery, NewNote, Note, NoteChange, NoteEdit, NoteSummary } from '../../kernel/note.js';
import { KeyedMutex } from '../../toolkit/mutex.js';
import { searchCache } from './cache/fts-search.js';
import type { NoteCache } from './cache/note-cache.js';
import type { SimperiumClient, StoredObject } from './client/simperium-client.js';
import { changedObject, hashOf, isTrashed, newObject, noteOf, nowSeconds } from './note-object.js';
import type { SimplenoteSyncStats, Syncer } from './sync.js';
import type { SyncLoop } from './sync-loop.js';

/** How long a read the cache could answer waits for Simplenote (login included) before the cache answers. */
export const FRESH_READ_BUDGET_MS = 5_000;

/** "12 min ago", roughly. */
function ago(iso: string): string {
  const seconds = Math.max(0, Math.round((Date.now() - Date.parse(iso)) / 1000));
  if (seconds < 120) return `${seconds} s ago`;
  if (seconds < 7200) return `${Math.round(seconds / 60)} min ago`;
  if (seconds < 172_800) return `${Math.round(seconds / 3600)} h ago`;
  return `${Math.round(seconds / 86_400)} days ago`;
}

export interface SimplenoteStoreParts {
  client: SimperiumClient;
  cache: NoteCache;
  syncer: Syncer;
  /** The background syncs (with backoff); manual syncs go through it too, so its state is the truth. */
  loop: SyncLoop;
  /**
   * Network work waits for use (profile option `firstSync: behind-open`): the open only reads
   * the cache file; the sync at start and the timer begin with the first watcher (a server) or
   * the first read that needs an empty cache filled. A one-shot command that lists tools never
   * logs in.
   */
  deferred: boolean;
  logger: Logger;
  /** Schedules a (debounced) save of the cache file. */
  persistSoon(): void;
  /** Saves now and releases the cache. */
  closeCache(): Promise<void>;
  /** While someone watches, a delta sync runs this often (ms); undefined: the background syncs report to watchers. */
  watchIntervalMs?: number;
  /** Size of the cache file, when it exists. */
  cacheBytes(): number | undefined;
}

export class SimplenoteStore implements NoteStore {
  private readonly locks = new KeyedMutex();
  private readonly listeners = new Set<(change: ExternalChange) => void>();
  private poll: NodeJS.Timeout | undefined;
  private closed = false;
  /** The sync at start, once begun (deferred mode). */
  private begun: Promise<unknown> | undefined;

  constructor(private readonly parts: SimplenoteStoreParts) {}

  /** capability `remote-sync`: sync now, the cache's state, and a rebuild from scratch. */
  readonly remote: RemoteSync = {
    syncNow: async () => {
      await this.filled();
      return this.parts.loop.round();
    },
    stats: async (): Promise<SimplenoteSyncStats> => {
      const bytes = this.parts.cacheBytes();
      const unreachable = this.parts.client.unreachable();
      return {
        ...this.parts.syncer.stats(),
        sync: this.parts.loop.state(),
        ...(unreachable ? { unreachable } : {}),
        ...(bytes !== undefined ? { cacheBytes: bytes } : {}),
      };
    },
    resetCache: async () => {
      await this.filled().catch(() => undefined);
      return this.parts.syncer.reset();
    },
  };

  /** Deferred mode: the sync at start and the timer, begun once. */
  private begin(): Promise<unknown> {
    if (!this.parts.deferred || this.closed) return Promise.resolve();
    this.begun ??= this.parts.loop.start({ now: true }) ?? Promise.resolve();
    this.begun.catch(() => undefined);
    return this.begun;
  }

  /**
   * Resolves once the cache has been filled by a full sync. With a cursor it has; without one
   * this waits for the sync at start, and when that failed tries once more (a full sync resumes
   * at its page mark).
   */
  private async filled(): Promise<void> {
    if (this.parts.syncer.cursor !== undefined) return;
    try {
      await this.begin();
    } catch {
      // tried again below
    }
    if (this.parts.syncer.cursor !== undefined) return;
    try {
      await this.parts.loop.round();
    } catch (err) {
      throw new BackendUnavailableError(
        `Simplenote: the local cache has not been filled yet (the first full sync failed: ${(err as Error).message})`,
        { backend: 'simplenote' },
      );
    }
  }

  /** Changes from other devices, as delta syncs find them (polled while someone listens, when no background sync runs). */
  watch(listener: (change: ExternalChange) => void): () => void {
    this.listeners.add(listener);
    void this.begin();
    const every = this.parts.watchIntervalMs;
    if (every !== undefined) {
      this.poll ??= setInterval(() => {
        this.parts.syncer
          .sync()
          .catch((err: unknown) =>
            this.parts.logger.warn(
              { error: (err as Error).message },
              'simplenote watch sync failed; next round retries',
            ),
          );
      }, every).unref();
    }
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.stopPolling();
    };
  }

  /** What the syncer tells: undefined while nobody listens, so a sync pays nothing for events then. */
  changeSink(): ((change: ExternalChange) => void) | undefined {
    if (this.listeners.size === 0) return undefined;
    return (change) => {
      for (const listener of this.listeners) {
        try {
          listener(change);
        } catch (err) {
          this.parts.logger.warn({ error: (err as Error).message }, 'a simplenote watch listener failed');
        }
      }
    };
  }

  /**
   * The note as Simplenote holds it now. When the cache holds it too, Simplenote gets
   * FRESH_READ_BUDGET_MS (login included); slow, down or refusing the login, the cached copy
   * answers instead, with a warning saying so and how fresh the cache is.
   */
  async get(id: string): Promise<Note | undefined> {
    const cached = this.parts.cache.get(id);
    let stored: StoredObject | undefined;
    try {
      stored = await this.parts.client.get(id, undefined, cached ? { budgetMs: FRESH_READ_BUDGET_MS } : {});
    } catch (err) {
      if (!cached || !(err instanceof BackendUnavailableError || err instanceof TimeoutError)) throw err;
      return {
        ...noteOf(id, cached.version, cached.object),
        warnings: [this.cachedNotice(cached.version, err as Error)],
      };
    }
    this.remember(id, stored);
    return stored && noteOf(id, stored.version, stored.data);
  }

  /** What a reader is told when the cache answered for Simplenote. */
  private cachedNotice(version: number, err: Error): string {
    const down = this.parts.client.unreachable();
    const why = down
      ? `unreachable since ${down.since}`
      : err instanceof TimeoutError
        ? `no answer within ${FRESH_READ_BUDGET_MS / 1000} s`
        : 'refused or failed';
    const last = this.parts.syncer.stats().lastSyncAt;
    const fresh = last ? `as fresh as the last sync, ${last} (${ago(last)})` : 'never synced in this cache';
    return `Simplenote did not answer (${why}): this is the locally cached copy at version ${version}, ${fresh}. Changes made elsewhere since may be missing; save needs Simplenote.`;
  }

  async list(query?: ListQuery): Promise<NoteSummary[]> {
    await this.filled();
    return this.parts.cache.list(query);
  }

  async count(query?: Pick<ListQuery, 'type'>): Promise<number> {
    await this.filled();
    return this.parts.cache.count(query);
  }

  async create(input: NewNote): Promise<Note> {
    const object = newObject(input);
    // simplenote.py's id form (uuid hex): any client reads it.
    const id = randomUUID().replace(/-/g, '');
    const stored = (await this.parts.client.put(id, object)) ?? (await this.parts.client.get(id));
    if (!stored) throw new NotFoundError(`Simplenote lost note ${id} right after creating it.`, { id });
    this.remember(id, stored);
    return noteOf(id, stored.version, stored.data);
  }

  async update(id: string, edit: NoteChange | NoteEdit, expectedHash: string): Promise<Note> {
    return this.locks.run(id, async () => {
      const current = await this.current(id, expectedHash);
      const change = typeof edit === 'function' ? await edit(noteOf(id, current.version, current.data)) : edit;
      const next = changedObject(current.data, change);
      if (!next) return noteOf(id, current.version, current.data);
      const stored =
        (await this.parts.client.put(id, next, { baseVersion: current.version })) ?? (await this.parts.client.get(id));
      this.remember(id, stored);
      if (!stored) throw new NotFoundError(`Note not found: ${id} (deleted on another device).`, { identifier: id });
      return noteOf(id, stored.version, stored.data);
    });
  }

  /** Simplenote's only way to delete: trash (unless trashed already), then DELETE. */
  async delete(id: string, expectedHash?: string): Promise<Note> {
    return this.locks.run(id, async () => {
      const current = await this.current(id, expectedHash);
      if (!isTrashed(current.data))
        await this.parts.client.put(
          id,
          { ...current.data, deleted: true, modificationDate: nowSeconds() },
          { baseVersion: current.version },
        );
      await this.parts.client.destroy(id);
      this.remember(id, undefined);
      return noteOf(id, current.version, current.data);
    });
  }

  async refresh(): Promise<RefreshReport> {
    await this.filled();
    const { full: _full, ...report } = await this.parts.loop.round();
    return report;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stopPolling();
    await this.parts.closeCache();
  }

  /** The search index over this store's cache (the same backend serves both roles). */
  searchIndex(): SearchIndex {
    return {
      search: async (query: SearchQuery): Promise<SearchPage> => {
        await this.filled();
        return searchCache(this.parts.cache, query);
      },
      // The cache follows this store's own writes and syncs; a note handed in is re-read from
      // Simperium only when the cache holds another version of it.
      upsert: async (note: Note) => {
        if (this.parts.cache.get(note.id)?.contentHash !== note.contentHash) await this.get(note.id);
      },
      remove: async (id: string) => {
        if (this.parts.cache.get(id)) await this.get(id);
      },
      close: async () => {},
    };
  }

  private stopPolling(): void {
    clearInterval(this.poll);
    this.poll = undefined;
  }

  /** The note as Simperium holds it now, checked against the caller's hash. */
  private async current(id: string, expectedHash: string | undefined): Promise<StoredObject> {
    const stored = await this.parts.client.get(id);
    this.remember(id, stored);
    if (!stored) throw new NotFoundError(`Note not found: ${id}`, { identifier: id });
    const currentHash = hashOf(stored.data);
    if (expectedHash !== undefined && currentHash !== expectedHash)
      throw new ContentHashMismatchError(currentHash, expectedHash, { id });
    return stored;
  }

  /** Brings the cache in line with what Simperium just said about one note. */
  private remember(id: string, stored: StoredObject | undefined): void {
    if (!stored) {
      if (this.parts.cache.remove(id)) this.parts.persistSoon();
      return;
    }
    const outcome = this.parts.cache.upsert(id, stored.version, stored.data);
    if (outcome.kind === 'written') this.parts.persistSoon();
    else if (outcome.kind !== 'unchanged')
      this.parts.syncer.feedAnomaly(id, stored.version, outcome, 'read'), this.parts.persistSoon();
  }
}
