/**
 * The SearchIndex contract: how a vault's notes are found. Every index answers `full-text`
 * queries; what a query asks beyond that needs the capability `searchNeeds` names, and the kernel
 * refuses it before the index sees it (search-gate.ts).
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
 * What a search asks for. `text`, `type`, `limit` and `offset` are `full-text`; the rest need the
 * capability `searchNeeds` names, so an index only ever sees what it declared. A bad value (an
 * unknown sort field, a malformed pattern) fails with `validation_failed`, `details.field` naming
 * the member by its path here (`metadata.1.operator`, `sort.0.field`) so each tool can name its own
 * argument. A query that matches nothing is an empty page, never an error.
 */
export interface SearchQuery {
  /**
   * Empty lists notes most recently updated first. Syntax (docs/search-syntax.md, parsed by
   * toolkit/search/query.ts): plain words are a question (any content word matches, notes holding
   * every one first, by BM25); `"phrases"`, `plan*`, `-word` and `a OR b` mean what they spell.
   * Case and diacritics are folded; nothing typed is a syntax error.
   */
  text: string;
  type?: string;
  limit: number;
  offset?: number;
  /**
   * `text` is a JavaScript regular expression (`source` or `/source/flags`) matched against title
   * and content; combines with the filters, not with `sort` (hits by number of matches, then most
   * recent). Backends cap its length and run time (`timeoutMs`); one that does not compile fails
   * with `validation_failed` naming `text`.
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

type SearchNeed = { capability: Capability; member: string };

/** The capabilities a query needs beyond `full-text`, each with the member that needs it. */
export function searchNeeds(query: SearchQuery): SearchNeed[] {
  const needs: SearchNeed[] = [];
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
  note?: SearchHitNote;
}

export interface SearchPage {
  hits: SearchHit[];
  /** Every match, not only this page. */
  total: number;
  /**
   * A `semantic` or `hybrid` ranking saw only the passages whose vectors are built so far (`ready`
   * of `total`); keyword matches are complete.
   */
  vectors?: { ready: number; total: number };
  /** A sentence for the reader on how complete this page is, shown beside the hits. */
  notice?: string;
}

/** What `SearchIndex.finishBackground` waited for. */
export interface BackgroundReport {
  /** Items done since the index opened (passages embedded). */
  done: number;
  /** How long the caller waited. */
  ms: number;
}

/** Bounds for `SearchIndex.sql`; a backend applies its own defaults (30 s, 1,000 rows) when absent. */
export interface SqlQueryOptions {
  /** Past this the query is stopped and fails with `timeout`; other calls keep being served. */
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
   * extension `reconcile`: brings an index apart from its store level with it (notes it lacks or
   * holds at another `contentHash` upserted, notes gone removed). The kernel runs it behind every
   * open (reads wait), so an index fed by writes catches up with an existing vault and with writes
   * it missed in a crash.
   */
  reconcile?(source: ReconcileSource): Promise<ReconcileReport>;
  /**
   * extension `background-work`: resolves once the work the index does behind its answers (embedding
   * passages) is finished, reporting on `progress`. Searches never wait for it: they answer from
   * what is ready and say so (`SearchPage.vectors`).
   */
  finishBackground?(progress?: ProgressReporter): Promise<BackgroundReport>;
  /**
   * capability `sql`: one read-only `SELECT` / `WITH` statement, on a connection apart from the
   * writer's. `params` bind `?` (a list) or `@name` / `:name` (an object). A refused statement
   * (writes, ATTACH, PRAGMA, ...) fails with `validation_failed` saying why.
   */
  sql?(query: string, params?: SqlParams, options?: SqlQueryOptions): Promise<Array<Record<string, unknown>>>;
}
