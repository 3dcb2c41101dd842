/**
 * The SearchIndex contract: how a vault's notes are found. Every index answers `full-text`
 * queries; what a query asks beyond that (regex, metadata filters, vectors) needs the capability
 * `searchNeeds` names, and the kernel refuses it before the index sees it (kernel/search-gate.ts).
 */
import type { Capability } from './backend.js';
import type { Note, NoteSummary } from './note.js';
import type { ProgressReporter } from './progress.js';
import type { SqlParams } from './index-database.js';

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
   * What to look for; empty lists notes most recently updated first. Parsed by toolkit/search/query.ts
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
