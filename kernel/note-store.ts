/**
 * The NoteStore contract: where a vault's notes live. Required members every store has; optional
 * ones exist exactly when the backend declares the capability or extension named beside each
 * (kernel/backend.ts, CAPABILITY_MEMBERS), so a caller asks the member, never the backend's id.
 */
import type { ListQuery, Note, NoteChange, NoteEdit, NewNote, NoteSummary } from './note.js';
import type { ProgressReporter } from './progress.js';
import type { IndexDatabase } from './index-database.js';
import type { JournalStorage } from './journal.js';

/** Vault-contained raw file access, for plugin-owned files such as `_description.md`. */
export interface VaultFiles {
  readonly root: string;
  readText(relPath: string): Promise<string | undefined>;
  /** Atomic write (temp file, fsync, rename); `expectedHash` makes it a compare-and-swap. */
  writeText(relPath: string, text: string, options?: { expectedHash?: string }): Promise<{ contentHash: string }>;
  exists(relPath: string): Promise<boolean>;
  listDir(relPath: string): Promise<Array<{ name: string; isDirectory: boolean }>>;
  mkdir(relPath: string): Promise<void>;
  /** `expectedHash` makes it a compare-and-remove, as for `writeText`. */
  remove(relPath: string, options?: { expectedHash?: string }): Promise<void>;
  /** Resolves a vault-relative path to an absolute one, refusing anything outside. */
  resolve(relPath: string): string;
}

export type ExternalChange =
  | { kind: 'written'; note: Note; previous?: NoteSummary }
  | { kind: 'deleted'; id: string; previous?: NoteSummary };

export interface RefreshReport {
  scanned: number;
  indexed: number;
  removed: number;
  skipped: Array<{ path: string; reason: string }>;
  ms: number;
}

/** One item of `NoteStore.updateMany`. */
export interface NoteUpdate {
  id: string;
  change: NoteChange | NoteEdit;
  expectedHash: string;
}

export interface NoteStore {
  get(id: string): Promise<Note | undefined>;
  list(query?: ListQuery): Promise<NoteSummary[]>;
  count(query?: Pick<ListQuery, 'type'>): Promise<number>;
  /** Fails with `conflict` when the backend's chosen id already exists. */
  create(input: NewNote): Promise<Note>;
  /**
   * Compare-and-swap on the content hash: a stale `expectedHash` fails with `content_hash_mismatch`.
   * A `NoteEdit` is called with the note as read under the lock, after the hash check, and may
   * throw to refuse the write (nothing is written then): one read per update.
   */
  update(id: string, change: NoteChange | NoteEdit, expectedHash: string): Promise<Note>;
  /**
   * Several compare-and-swaps at once (a rename's link rewrites): each item succeeds or fails on
   * its own, as if updated one after another, results in input order. A backend may share locks,
   * fsyncs and one index transaction among them; one that has nothing better leaves it out and
   * the kernel calls `update` for each (`updateEach`). Extension `batch-update`.
   */
  updateMany?(items: readonly NoteUpdate[]): Promise<Array<PromiseSettledResult<Note>>>;
  /** Returns the note as it was; `expectedHash` (when given) guards against deleting a changed note. */
  delete(id: string, expectedHash?: string): Promise<Note>;
  /**
   * extension `refresh`: re-reads whatever changed behind the store since its index was last
   * brought up to date (files edited while it was closed, a remote service's changes). A store
   * with nothing to re-read (in memory, a database it alone writes) leaves it out; callers check.
   * A backend may run its first refresh behind the open (fs-sqlite does, decision 013): its
   * index-backed methods then wait for it, and `refresh()` starts it when it has not begun, else
   * runs after it.
   */
  refresh?(progress?: ProgressReporter): Promise<RefreshReport>;
  close(): Promise<void>;

  /** capability `typed-notes` */
  listTypes?(): Promise<string[]>;
  /** capability `typed-notes` */
  move?(id: string, newType: string, expectedHash: string): Promise<Note>;
  /** capability `files` */
  readonly files?: VaultFiles;
  /** capability `watch`: returns an unsubscribe function. */
  watch?(listener: (change: ExternalChange) => void): () => void;
  /** capability `index-db` */
  readonly indexDb?: IndexDatabase;
  /**
   * extension `index-pass`: a backend that reads every changed file in an index pass of its own (fs-sqlite's refresh)
   * hands each batch it parsed to derived indexes (links, tags) here, so they are built from the
   * same read of each file, not from a second pass (decision 026). Returns an unsubscribe function.
   */
  observeIndexPass?(observer: IndexPassObserver): () => void;
  /**
   * extension `snapshot-token`: a cheap token that changes whenever any note's bytes, name or presence changes (fs-sqlite:
   * its files digest, decision 012), or undefined when the backend has none at hand. A derived
   * index that stored the token of its last full check skips the next one when it is unchanged.
   */
  snapshotToken?(): Promise<string | undefined>;
  /**
   * extension `early-reads`: resolves when a read-only answer (a search, a link query) may come from the index as it
   * stands, with a sentence when its rows are known to lag the files. fs-sqlite, once watching
   * (a server), resolves at once while its opening refresh catches up on an index a refresh once
   * brought level with the files (decision 026); a first build is waited for. Writes still wait.
   */
  whenReadable?(): Promise<{ lagging?: string }>;
  /**
   * capability `typed-notes` (may be absent): the type a note created without one gets, when the store's options set it explicitly
   * (fs-sqlite's `defaultType`): a config's choice, which wins over a vault's own default.
   */
  readonly defaultType?: string;
  /**
   * capability `files` (may be absent): whether a markdown file at this vault-relative path is read as a note
   * (flint's typed layout reads `<type>/<name>.md` only). A plugin writing note files (a saved
   * card) asks it to choose a folder the store indexes.
   */
  readsNoteAt?(relPath: string): boolean;
  /** capability `journal`: where multi-note operations are planned before they run (decision 025). */
  readonly journal?: JournalStorage;
  /** capability `remote-sync` */
  readonly remote?: RemoteSync;
}

/** What one synchronisation with the remote service did. */
export interface RemoteSyncReport extends RefreshReport {
  /** A full sync (the local copy was empty or reset) rather than a delta. */
  full: boolean;
}

/** The state of a store's local copy of a remote service. */
export interface RemoteSyncStats {
  notes: number;
  trashed: number;
  /** The service's change cursor the local copy is at; undefined before the first full sync. */
  cursor?: string;
  /** ISO-8601 of the last sync that completed, and what it did. */
  lastSyncAt?: string;
  lastSync?: RemoteSyncReport;
  lastError?: string;
  syncs: number;
  failedSyncs: number;
  /** Bytes of the persisted local copy, when it is a file. */
  cacheBytes?: number;
}

/**
 * capability `remote-sync`: the notes' truth is a remote service and the store keeps a local
 * copy (listings and search read it). A plugin asks through this member, never the backend.
 */
export interface RemoteSync {
  /** Brings the local copy up to date now (a delta sync; a full one when it has none). */
  syncNow(): Promise<RemoteSyncReport>;
  stats(): Promise<RemoteSyncStats>;
  /** Drops the local copy and rebuilds it from the service (a full sync). */
  resetCache(): Promise<RemoteSyncReport>;
}

/**
 * A derived index fed by the backend's index pass. Calls come one at a time, in order, and the
 * pass waits for each, so a batch's notes are released before the next is read: memory stays
 * bounded by the batch, whatever the vault's size.
 */
export interface IndexPassObserver {
  /**
   * A pass starts. `first`: the store held no note before it, so every note of the vault comes
   * in this pass (a first build): a derived index may fill its tables in bulk, and when the
   * pass ends complete it holds exactly the store's notes.
   */
  begin?(pass: { first: boolean }): void | Promise<void>;
  /** Notes the pass (re)indexed, and ids it dropped (files gone or no longer notes). */
  batch(notes: readonly Note[], removed: readonly string[]): void | Promise<void>;
  /** The pass ended; `complete` is false when it stopped early (a closing vault) or failed. */
  end(complete: boolean): void | Promise<void>;
}

/** The store's `refresh`, or an empty report from a store with nothing to re-read. */
export async function refreshStore(store: NoteStore, progress?: ProgressReporter): Promise<RefreshReport> {
  if (store.refresh) return store.refresh(progress);
  return { scanned: 0, indexed: 0, removed: 0, skipped: [], ms: 0 };
}
