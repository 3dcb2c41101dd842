/**
 * The backend contract. A backend is a definition with static capabilities (known before
 * any I/O, so the kernel can refuse a plugin at start-up) and an async factory. Optional
 * methods exist exactly when their capability is declared; calling for a capability the
 * backend lacks throws CapabilityError, never a silent no-op.
 */
import type { z } from 'zod';
import type { Logger } from './logger.js';
import type { ListQuery, Note, NoteChange, NewNote, NoteSummary } from './note.js';
import type { FaultReporter } from './faults.js';
import { CapabilityError } from './errors.js';
import type { ProgressReporter } from './progress.js';
import type { IndexDatabase, SqlParams } from './index-database.js';
import type { JournalStorage } from './journal.js';

export const CAPABILITIES = {
  types: 'notes live in type folders; listTypes/move are available',
  frontmatter: 'arbitrary metadata (nested values, any key) and free-form tags are stored with each note',
  files: 'raw, vault-contained file access (files) for plugin-owned files',
  watch: 'external edits are detected while running (watch)',
  journal: 'multi-note operations are journalled: finished or rolled back after a crash (journal)',
  'index-db': 'plugins may keep their own tables in the backend index (indexDb)',
  'git-history': 'timestamps derived from git history',
  'remote-sync': 'notes are synchronised with a remote service',
  'full-text': 'ranked keyword search with snippets, filtered by type (search)',
  regex: 'search by regular expression (SearchQuery.regex)',
  'metadata-query': 'search filtered by metadata predicates, creation/update windows and content phrases, sorted by any field',
  sql: 'read-only SQL over the index (sql)',
  vectors: 'semantic (vector) search: SearchQuery.mode semantic and hybrid',
} as const;

export type Capability = keyof typeof CAPABILITIES;

/** Which part of a vault serves each capability: its store, or its search index. */
export const CAPABILITY_ROLE: Readonly<Record<Capability, 'storage' | 'search'>> = {
  types: 'storage',
  frontmatter: 'storage',
  files: 'storage',
  watch: 'storage',
  journal: 'storage',
  'index-db': 'storage',
  'git-history': 'storage',
  'remote-sync': 'storage',
  'full-text': 'search',
  regex: 'search',
  'metadata-query': 'search',
  sql: 'search',
  vectors: 'search',
};

/**
 * Where a backend keeps a vault. `required`: a folder on this machine (the kernel resolves it and
 * refuses a missing one); `optional`: a folder if given (a cache, say); `none`: no folder at all
 * (an in-memory or purely remote store), so a vault is named by its id alone.
 */
export type BackendFolder = 'required' | 'optional' | 'none';

export type BackendKind = 'storage' | 'search' | 'both';

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
  change: NoteChange;
  expectedHash: string;
}

export interface NoteStore {
  get(id: string): Promise<Note | undefined>;
  list(query?: ListQuery): Promise<NoteSummary[]>;
  count(query?: Pick<ListQuery, 'type'>): Promise<number>;
  /** Fails with `conflict` when the backend's chosen id already exists. */
  create(input: NewNote): Promise<Note>;
  /** Compare-and-swap on the content hash: a stale `expectedHash` fails with `content_hash_mismatch`. */
  update(id: string, change: NoteChange, expectedHash: string): Promise<Note>;
  /**
   * Several compare-and-swaps at once (a rename's link rewrites): each item succeeds or fails on
   * its own, as if updated one after another, results in input order. A backend may share locks,
   * fsyncs and one index transaction among them; one that has nothing better leaves it out and
   * the kernel calls `update` for each (`updateEach`).
   */
  updateMany?(items: readonly NoteUpdate[]): Promise<Array<PromiseSettledResult<Note>>>;
  /** Returns the note as it was; `expectedHash` (when given) guards against deleting a changed note. */
  delete(id: string, expectedHash?: string): Promise<Note>;
  /**
   * Re-reads whatever changed on disk since the index was last brought up to date. A backend may
   * run its first refresh behind the open (fs-sqlite does, decision 013): its index-backed
   * methods then wait for it, and `refresh()` starts it when it has not begun, else runs after it.
   */
  refresh(progress?: ProgressReporter): Promise<RefreshReport>;
  close(): Promise<void>;

  /** capability `types` */
  listTypes?(): Promise<string[]>;
  /** capability `types` */
  move?(id: string, newType: string, expectedHash: string): Promise<Note>;
  /** capability `files` */
  readonly files?: VaultFiles;
  /** capability `watch`: returns an unsubscribe function. */
  watch?(listener: (change: ExternalChange) => void): () => void;
  /** capability `index-db` */
  readonly indexDb?: IndexDatabase;
  /**
   * A backend that reads every changed file in an index pass of its own (fs-sqlite's refresh)
   * hands each batch it parsed to derived indexes (links, tags) here, so they are built from the
   * same read of each file, not from a second pass (decision 026). Returns an unsubscribe function.
   */
  observeIndexPass?(observer: IndexPassObserver): () => void;
  /**
   * A cheap token that changes whenever any note's bytes, name or presence changes (fs-sqlite:
   * its files digest, decision 012), or undefined when the backend has none at hand. A derived
   * index that stored the token of its last full check skips the next one when it is unchanged.
   */
  snapshotToken?(): Promise<string | undefined>;
  /**
   * Resolves when a read-only answer (a search, a link query) may come from the index as it
   * stands, with a sentence when its rows are known to lag the files. fs-sqlite, once watching
   * (a server), resolves at once while its opening refresh catches up on an index a refresh once
   * brought level with the files (decision 026); a first build is waited for. Writes still wait.
   */
  whenReadable?(): Promise<{ lagging?: string }>;
  /**
   * The type a note created without one gets, when the store's options set it explicitly
   * (fs-sqlite's `defaultType`): a config's choice, which wins over a vault's own default.
   */
  readonly defaultType?: string;
  /**
   * capability `files`: whether a markdown file at this vault-relative path is read as a note
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

/** Operators a metadata predicate may use (seed 000's `metadata_filters`). */
export const METADATA_OPERATORS = ['=', '!=', '>', '<', '>=', '<=', 'LIKE', 'IN'] as const;
export type MetadataOperator = (typeof METADATA_OPERATORS)[number];
export type MetadataScalar = string | number | boolean | null;

/**
 * One condition on a metadata key. Values compare by the type the note stores: numbers as
 * numbers, dates as instants, booleans and strings as text; each element of a list is tested
 * on its own (`tags = 'x'` means "has tag x"). `!=` means "has the key, and no value equals".
 */
export interface MetadataPredicate {
  key: string;
  /** `=` when omitted. `LIKE` takes SQL wildcards (`%`, `_`), case-insensitive for ASCII. */
  operator?: MetadataOperator;
  /** One scalar; for `IN` a list (a string is split at commas). */
  value: MetadataScalar | readonly MetadataScalar[];
}

/** A window over ISO-8601 instants: `after` inclusive, `before` exclusive; either may be open. */
export interface TimeRange {
  after?: string;
  before?: string;
}

/** Sortable fields besides `metadata.<key>`; `score` is the text relevance (0 without text). */
export const SEARCH_SORT_FIELDS = ['score', 'title', 'type', 'created', 'updated', 'size'] as const;
export type SearchSortField = (typeof SEARCH_SORT_FIELDS)[number] | `metadata.${string}`;

export interface SearchSort {
  field: SearchSortField;
  /** `asc` when omitted. */
  order?: 'asc' | 'desc';
}

/** How a search matches: by words (`keyword`), by meaning (`semantic`), or both fused (`hybrid`). */
export const SEARCH_MODES = ['hybrid', 'semantic', 'keyword'] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

/**
 * What a search asks for. Every SearchIndex honours `text`, `type`, `limit` and `offset`
 * (capability `full-text`); `regex` needs capability `regex`; `metadata`, `created`, `updated`,
 * `contentContains` and `sort` need `metadata-query`; `mode` semantic or hybrid needs `vectors`.
 * The kernel refuses a query that asks for what the index lacks (`capability_missing`, naming the
 * member and the backend) before it reaches the index (`searchNeeds`). A bad value (an unknown
 * sort field, a malformed pattern) fails with `validation_failed` whose `details.field` names the
 * member by its path here (`text`, `metadata.1.operator`, `sort.0.field`), so each tool can name
 * its own argument. A query that matches nothing is an empty page, never an error.
 */
export interface SearchQuery {
  /**
   * What to look for; empty lists notes most recently updated first. Parsed by kernel/query.ts
   * (docs/search-syntax.md): plain words are a question (any content word matches, notes holding
   * every one first, by BM25); `"quoted phrases"`, `plan*` prefixes, `-word` exclusions and
   * `a OR b` mean what they spell. Case and diacritics are folded; nothing typed is a syntax error.
   */
  text: string;
  type?: string;
  limit: number;
  offset?: number;
  /**
   * `text` is a JavaScript regular expression (`source`, or `/source/flags`) matched against
   * each note's title and content instead of words; combines with the filters, not with
   * `sort` (hits come by number of matches, then most recent). Backends cap the pattern's
   * length and its run time (`timeoutMs`) and fail with `validation_failed` naming `text` when
   * it does not compile.
   */
  regex?: boolean;
  /** All must hold. */
  metadata?: readonly MetadataPredicate[];
  created?: TimeRange;
  updated?: TimeRange;
  /** The content holds these words in this order (case and diacritics folded; the last may be a prefix). */
  contentContains?: string;
  /** Earlier entries first; ties fall back to the id. Default: `score` desc with text, else `updated` desc. */
  sort?: readonly SearchSort[];
  /** Longest the backend may spend on an unbounded scan (`regex`); past it, `timeout`. */
  timeoutMs?: number;
  /** `keyword` when omitted on an index without `vectors`, else the index's default (hybrid). */
  mode?: SearchMode;
}

/** The capabilities a query needs beyond `full-text`, each with the member that needs it. */
export function searchNeeds(query: SearchQuery): Array<{ capability: Capability; member: string }> {
  const needs: Array<{ capability: Capability; member: string }> = [];
  if (query.regex) needs.push({ capability: 'regex', member: 'regex' });
  if (query.mode === 'semantic' || query.mode === 'hybrid') needs.push({ capability: 'vectors', member: 'mode' });
  const filters = [
    ['metadata', query.metadata?.length],
    ['created', query.created],
    ['updated', query.updated],
    ['contentContains', query.contentContains],
    ['sort', query.sort?.length],
  ] as const;
  for (const [member, present] of filters) if (present) needs.push({ capability: 'metadata-query', member });
  return needs;
}

/** The indexed view of a hit's note, when the index holds one (saves a read per hit). */
export type SearchHitNote = NoteSummary;

export interface SearchHit {
  id: string;
  /** Higher is better; comparable only within one page. */
  score: number;
  /** An excerpt; matched terms are wrapped in `<mark>` … `</mark>`. */
  snippet: string;
  /** Present when the backend's index holds the note's summary and metadata. */
  note?: SearchHitNote;
}

export interface SearchPage {
  hits: SearchHit[];
  /** Every match, not only this page. */
  total: number;
  /**
   * Present when a `semantic` or `hybrid` ranking saw only part of the index: its vectors are
   * still being built in the background (`ready` of `total` passages). Keyword matches are
   * complete; a tool shows `notice` beside the hits.
   */
  vectors?: { ready: number; total: number };
  /** A sentence for the reader about how complete this page is (e.g. vectors still building). */
  notice?: string;
}

/** Work an index does behind its answers, as `SearchIndex.finishBackground` reports it. */
export interface BackgroundReport {
  /** Items of background work done since the index opened (passages embedded). */
  done: number;
  /** How long the caller waited. */
  ms: number;
}

/** Bounds for `SearchIndex.sql`; a backend applies its own defaults (30 s, 1,000 rows) when absent. */
export interface SqlQueryOptions {
  /** Past this the query is stopped and the call fails with `timeout`; other calls keep being served. */
  timeoutMs?: number;
  /** Rows beyond this are not read. */
  maxRows?: number;
}

/** What a search index reads to catch up with a store (`SearchIndex.reconcile`). */
export interface ReconcileSource {
  list(): Promise<NoteSummary[]>;
  get(id: string): Promise<Note | undefined>;
}

export interface ReconcileReport {
  upserted: number;
  removed: number;
  unchanged: number;
}

export interface SearchIndex {
  search(query: SearchQuery): Promise<SearchPage>;
  upsert(note: Note): Promise<void>;
  remove(id: string): Promise<void>;
  close(): Promise<void>;
  /**
   * Brings the index up to date with a store it is not part of: notes it lacks or holds at
   * another `contentHash` are read and upserted, notes the store no longer has are removed. The
   * kernel runs it at every open of a vault with a separate search backend, behind the open (reads
   * wait for it), so an index fed only by writes still catches up with an existing vault and with
   * writes it missed (a crash between a write and its index update). Absent on an index that is
   * part of its store (fs-sqlite's own).
   */
  reconcile?(source: ReconcileSource): Promise<ReconcileReport>;
  /**
   * Resolves once the work the index does in the background (a hybrid index embedding passages
   * after their keywords were indexed) is finished, reporting it on `progress`. Searches never
   * wait for it: they answer from what is ready and say so (`SearchPage.vectors`). The CLI's
   * `index` command waits here with a progress bar.
   */
  finishBackground?(progress?: ProgressReporter): Promise<BackgroundReport>;
  /**
   * capability `sql`: exactly one read-only `SELECT` / `WITH` statement over the index, on a
   * connection separate from the writer's, bounded in rows and time. `params` bind `?` (a list)
   * or `@name` / `:name` (an object). A refused statement (writes, ATTACH, PRAGMA, ...) fails
   * with `validation_failed` saying why; a statement past its time limit with `timeout`.
   */
  sql?(query: string, params?: SqlParams, options?: SqlQueryOptions): Promise<Array<Record<string, unknown>>>;
}

export interface BackendContext<O> {
  /** The vault's folder (absolute, symlinks resolved): always set for `folder: 'required'`, never for `none`. */
  folder?: string;
  options: O;
  logger: Logger;
  readOnly: boolean;
  progress?: ProgressReporter;
  /** Where background work reports what it cannot do (kernel/faults.ts); absent outside a kernel. */
  faults?: FaultReporter;
}

export interface BackendInstance {
  store?: NoteStore;
  search?: SearchIndex;
  /** Set when the backend can only read (its folder or file system cannot be written): why. The vault is then served read-only. */
  readOnly?: string;
}

/** A setting a backend reads from outside the config file (an environment variable), as `serve --print-config-vars` shows it. */
export interface BackendSetting {
  name: string;
  purpose: string;
  /** The effective value; undefined when unset and without a default. */
  value?: string;
  /** Where the value came from. */
  source: 'environment' | '.env' | 'config' | 'default' | 'unset';
  /** Shown masked. */
  secret?: boolean;
  /** Opening fails without it. */
  required?: boolean;
}

export interface BackendDefinition<O = unknown> {
  id: string;
  kind: BackendKind;
  description: string;
  /** Where it keeps a vault; see BackendFolder. */
  folder: BackendFolder;
  capabilities: readonly Capability[];
  options: z.ZodType<O>;
  create(ctx: BackendContext<O>): Promise<BackendInstance>;
  /** The settings it reads beyond `options` (environment variables), with their effective values. */
  settings?(options: O): BackendSetting[];
}

export function defineBackend<O>(definition: BackendDefinition<O>): BackendDefinition<O> {
  return definition;
}

/** Optional members of NoteStore / SearchIndex and the capability that must accompany each. */
export const CAPABILITY_MEMBERS: ReadonlyArray<{ on: 'store' | 'search'; member: string; capability: Capability }> = [
  { on: 'store', member: 'listTypes', capability: 'types' },
  { on: 'store', member: 'move', capability: 'types' },
  { on: 'store', member: 'files', capability: 'files' },
  { on: 'store', member: 'watch', capability: 'watch' },
  { on: 'store', member: 'journal', capability: 'journal' },
  { on: 'store', member: 'indexDb', capability: 'index-db' },
  { on: 'store', member: 'remote', capability: 'remote-sync' },
  { on: 'search', member: 'sql', capability: 'sql' },
];

/** The folder of a backend declared `folder: 'required'` (the kernel has checked it is there). */
export function requireFolder<O>(ctx: BackendContext<O>, backendId: string): string {
  if (ctx.folder === undefined) throw new CapabilityError(`Backend "${backendId}" keeps notes in a folder: give one (--vault DIR).`, { backend: backendId });
  return ctx.folder;
}

/** Lists every mismatch between declared capabilities and the members an instance has. */
export function capabilityShapeProblems(definition: BackendDefinition<unknown>, instance: BackendInstance): string[] {
  const declared = new Set(definition.capabilities);
  const problems: string[] = [];
  for (const { on, member, capability } of CAPABILITY_MEMBERS) {
    const target = instance[on] as unknown as Record<string, unknown> | undefined;
    if (!target) continue;
    const present = target[member] !== undefined;
    if (present && !declared.has(capability)) problems.push(`${on}.${member} exists but "${capability}" is not declared`);
    if (!present && declared.has(capability)) problems.push(`"${capability}" is declared but ${on}.${member} is missing`);
  }
  return problems;
}

/** Returns the member, or throws a CapabilityError naming the backend and the capability. */
export function requireMember<T>(value: T | undefined, backendId: string, capability: Capability, needer: string): T {
  if (value === undefined) {
    throw new CapabilityError(
      `${needer} needs capability "${capability}" (${CAPABILITIES[capability]}), which backend "${backendId}" does not provide.`,
      { backend: backendId, capability, needed_by: needer },
    );
  }
  return value;
}
