/**
 * The NoteStore contract: where a vault's notes live. Each optional member exists exactly when the
 * backend declares the capability or extension named beside it (CAPABILITY_MEMBERS, backend.ts),
 * so a caller asks the member, never the backend's id.
 */
import type { ListQuery, Note, NoteChange, NoteEdit, NewNote, NoteSummary } from './note.js';
import type { ProgressReporter } from './progress.js';
import type { IndexDatabase } from './index-database.js';
import type { JournalStorage } from './journal.js';

/** Raw file access confined to the vault, for plugin-owned files such as `_description.md`. */
export interface VaultFiles {
  readonly root: string;
  readText(relPath: string): Promise<string | undefined>;
  /** Atomic (temp file, fsync, rename); `expectedHash` makes it a compare-and-swap. */
  writeText(relPath: string, text: string, options?: { expectedHash?: string }): Promise<{ contentHash: string }>;
  exists(relPath: string): Promise<boolean>;
  listDir(relPath: string): Promise<Array<{ name: string; isDirectory: boolean }>>;
  mkdir(relPath: string): Promise<void>;
  /** `expectedHash` makes it a compare-and-remove. */
  remove(relPath: string, options?: { expectedHash?: string }): Promise<void>;
  /** The absolute path; refuses anything outside the vault. */
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
  /** Fails with `conflict` when the chosen id already exists. */
  create(input: NewNote): Promise<Note>;
  /**
   * Compare-and-swap on the content hash: a stale `expectedHash` fails with `content_hash_mismatch`.
   * A `NoteEdit` gets the note as read under the lock, after the hash check, and may throw to
   * refuse the write (nothing is written): one read per update.
   */
  update(id: string, change: NoteChange | NoteEdit, expectedHash: string): Promise<Note>;
  /**
   * extension `batch-update`: several compare-and-swaps (a rename's link rewrites), each failing
   * alone as if run one after another, results in input order, sharing locks, fsyncs and one index
   * transaction. Without it the kernel calls `update` for each (`updateEach`).
   */
  updateMany?(items: readonly NoteUpdate[]): Promise<Array<PromiseSettledResult<Note>>>;
  /** Returns the note as it was; `expectedHash` guards against deleting a changed note. */
  delete(id: string, expectedHash?: string): Promise<Note>;
  /**
   * extension `refresh`: re-reads what changed behind the store since its index was last brought
   * level (files edited while it was closed, a remote service's changes). A first refresh run
   * behind the open (fs-sqlite, decision 013) makes index-backed methods wait for it; `refresh()`
   * then starts it, or runs after it.
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
   * extension `index-pass`: hands each batch the store's own index pass parsed (fs-sqlite's refresh)
   * to derived indexes (links, tags), so each file is read once (decision 026). Returns an
   * unsubscribe function.
   */
  observeIndexPass?(observer: IndexPassObserver): () => void;
  /**
   * extension `snapshot-token`: a cheap token that changes whenever any note's bytes, name or
   * presence does (fs-sqlite: its files digest, decision 012), or undefined when none is at hand.
   * A derived index skips a full check while the token it stored is unchanged.
   */
  snapshotToken?(): Promise<string | undefined>;
  /**
   * extension `early-reads`: resolves when a read-only answer (a search, a link query) may come from
   * the index as it stands, with a sentence when its rows are known to lag the files. fs-sqlite,
   * watching, resolves at once while its opening refresh catches up on an index once brought level
   * (decision 026); a first build is waited for, and writes always wait.
   */
  whenReadable?(): Promise<{ lagging?: string }>;
  /**
   * capability `typed-notes`, when the store's options set it (fs-sqlite's `defaultType`): the type
   * a note created without one gets; a config's choice, which wins over the vault's own default.
   */
  readonly defaultType?: string;
  /**
   * capability `files`, where the layout limits it: whether a markdown file at this path is read as
   * a note (flint reads `<type>/<name>.md` only), so a plugin writing note files picks a folder the
   * store indexes.
   */
  readsNoteAt?(relPath: string): boolean;
  /** capability `journal`: where multi-note operations are planned before they run (decision 025). */
  readonly journal?: JournalStorage;
  /** capability `remote-sync` */
  readonly remote?: RemoteSync;
}

export interface RemoteSyncReport extends RefreshReport {
  /** The local copy was empty or reset, rather than updated by a delta. */
  full: boolean;
}

/** The state of a store's local copy of a remote service. */
export interface RemoteSyncStats {
  notes: number;
  trashed: number;
  /** The service's change cursor; undefined before the first full sync. */
  cursor?: string;
  /** ISO-8601 of the last completed sync, and what it did. */
  lastSyncAt?: string;
  lastSync?: RemoteSyncReport;
  lastError?: string;
  syncs: number;
  failedSyncs: number;
  /** Bytes of the persisted local copy, when it is a file. */
  cacheBytes?: number;
}

/** capability `remote-sync`: the notes' truth is a remote service; listings and search read a local copy. */
export interface RemoteSync {
  /** A delta sync now; a full one when there is no local copy. */
  syncNow(): Promise<RemoteSyncReport>;
  stats(): Promise<RemoteSyncStats>;
  /** Drops the local copy and rebuilds it with a full sync. */
  resetCache(): Promise<RemoteSyncReport>;
}

/**
 * A derived index fed by the backend's index pass. Calls come one at a time and the pass waits for
 * each, so memory stays bounded by one batch whatever the vault's size.
 */
export interface IndexPassObserver {
  /**
   * `first`: the store held no note before, so every note comes in this pass: a derived index may
   * fill its tables in bulk and, once the pass ends complete, holds exactly the store's notes.
   */
  begin?(pass: { first: boolean }): void | Promise<void>;
  /** Notes the pass (re)indexed, and ids it dropped (files gone or no longer notes). */
  batch(notes: readonly Note[], removed: readonly string[]): void | Promise<void>;
  /** `complete` is false when the pass stopped early (a closing vault) or failed. */
  end(complete: boolean): void | Promise<void>;
}

/** The store's `refresh`, or an empty report from a store with nothing to re-read. */
export async function refreshStore(store: NoteStore, progress?: ProgressReporter): Promise<RefreshReport> {
  if (store.refresh) return store.refresh(progress);
  return { scanned: 0, indexed: 0, removed: 0, skipped: [], ms: 0 };
}
