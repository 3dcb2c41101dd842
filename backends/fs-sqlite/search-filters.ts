/**
 * The structured half of a SearchQuery → SQL: type, time windows and metadata predicates as
 * WHERE terms over `notes n`, and the sort as an ORDER BY. Unknown fields are refused here with
 * the SearchQuery path of the bad member, so a tool can name its own argument.
 */
import { SEARCH_SORT_FIELDS, type SearchQuery, type SearchSort, type TimeRange } from '../../kernel/backend.js';
import { ValidationError } from '../../kernel/errors.js';
import { metadataCondition, NUMERIC_TEXT, QueryParams } from './metadata-predicate.js';
import type { TitleOfQuery } from './fts-query.js';

export { QueryParams };

/** WHERE terms (ANDed) for everything but the text. */
export function filterTerms(query: SearchQuery, params: QueryParams): string[] {
  const terms: string[] = [];
  if (query.type !== undefined) terms.push(`n.type = ${params.add(query.type)}`);
  terms.push(...rangeTerms('n.created', query.created, 'created', params));
  terms.push(...rangeTerms('n.updated', query.updated, 'updated', params));
  // Without a type to narrow by, the first predicate drives (lists its notes); the rest check each candidate.
  (query.metadata ?? []).forEach((predicate, i) =>
    terms.push(metadataCondition(predicate, i, params, i === 0 && query.type === undefined ? 'in' : 'exists')),
  );
  return terms;
}

function rangeTerms(column: string, range: TimeRange | undefined, field: string, params: QueryParams): string[] {
  if (!range) return [];
  const terms: string[] = [];
  // Stored times are ISO-8601 text (the store writes toISOString()); comparing text keeps the index usable.
  if (range.after !== undefined) terms.push(`${column} >= ${params.add(instant(range.after, `${field}.after`))}`);
  if (range.before !== undefined) terms.push(`${column} < ${params.add(instant(range.before, `${field}.before`))}`);
  return terms;
}

function instant(value: string, field: string): string {
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new ValidationError(`${field}: "${value}" is not an ISO-8601 date or time.`, { field });
  return new Date(ms).toISOString();
}

export interface OrderContext {
  /** The FTS table joins in (a `score` column is available). */
  ranked: boolean;
  /** With no sort given: by score (a text query) or most recently updated first. */
  byScore: boolean;
  params: QueryParams;
  /** Whether any note has this metadata key. */
  hasMetadataKey(key: string): boolean;
}

/** ORDER BY terms; the id breaks ties so pages never overlap. */
export function orderTerms(sort: readonly SearchSort[] | undefined, ctx: OrderContext): string {
  const terms: string[] = [];
  if (!sort || sort.length === 0) {
    terms.push(ctx.ranked && ctx.byScore ? 'score DESC' : 'n.updated DESC');
  } else {
    sort.forEach((entry, i) => {
      const term = sortTerm(entry, i, ctx);
      if (term) terms.push(term);
    });
  }
  terms.push('n.id');
  return terms.join(', ');
}

const CORE_SORT: Record<string, string> = {
  // Code point order, as flint-note's `ORDER BY title` (decision 003): 'Zeta' before 'alpha'.
  title: 'n.title COLLATE BINARY',
  type: 'n.type',
  created: 'n.created',
  updated: 'n.updated',
  size: 'n.size',
};

/**
 * A note's value for `key`, as a sort key: numbers (and number-like text: one quoted "3" must
 * not jump the queue) as numbers, dates as instants, the rest as text; notes without it give
 * NULL. Read from the row's own metadata JSON, which the page query has in hand anyway.
 */
function metadataSortKey(key: string, params: QueryParams): string {
  if (key.includes('"')) {
    // A JSON path cannot quote this key: fall back to the metadata table.
    const k = params.add(key);
    return `(SELECT CASE WHEN m.value_type = 'number' OR ${NUMERIC_TEXT} THEN CAST(m.value AS REAL)
        WHEN m.value_type = 'date' THEN julianday(m.value) ELSE m.value END
      FROM note_metadata m WHERE m.note_id = n.id AND m.key = ${k} ORDER BY m.rowid LIMIT 1)`;
  }
  const j = `json_extract(n.metadata_json, ${params.add(`$."${key}"`)})`;
  return `(CASE WHEN typeof(${j}) IN ('integer', 'real') THEN ${j}
      WHEN CAST(CAST(${j} AS NUMERIC) AS TEXT) = ${j} THEN CAST(${j} AS REAL)
      WHEN ${j} GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]*' THEN coalesce(julianday(${j}), ${j})
      ELSE ${j} END)`;
}

function sortTerm(entry: SearchSort, i: number, ctx: OrderContext): string | undefined {
  const field = String(entry.field ?? '');
  const order = entry.order ?? 'asc';
  if (order !== 'asc' && order !== 'desc') {
    throw new ValidationError(`sort.${i}.order: "${String(order)}" is not asc or desc.`, { field: `sort.${i}.order` });
  }
  const dir = order === 'desc' ? 'DESC' : 'ASC';
  // `score` is the page query's relevance column; without words to rank it is 0 everywhere.
  if (field === 'score') return ctx.ranked ? `score ${dir}` : undefined;
  const core = CORE_SORT[field];
  if (core) return `${core} ${dir}`;
  if (field.startsWith('metadata.') && field.length > 'metadata.'.length) {
    const key = field.slice('metadata.'.length);
    if (!ctx.hasMetadataKey(key)) {
      throw new ValidationError(`sort.${i}.field: no note has the metadata key "${key}".`, {
        field: `sort.${i}.field`,
        key,
      });
    }
    return `${metadataSortKey(key, ctx.params)} ${dir} NULLS LAST`;
  }
  const hint = field && !field.includes('.') ? ` (for a metadata key write "metadata.${field}")` : '';
  throw new ValidationError(
    `sort.${i}.field: unknown sort field "${field}"; use one of ${SEARCH_SORT_FIELDS.join(', ')} or metadata.<key>${hint}.`,
    { field: `sort.${i}.field`, allowed: [...SEARCH_SORT_FIELDS, 'metadata.<key>'] },
  );
}

/** A search as planned (search-text.ts planSearch): everything but the ranking. */
export interface PlannedSearch {
  /** WHERE terms over `notes n` (and `f` when ranked), params bound by name. */
  terms: string[];
  params: QueryParams;
  /** The MATCH expression when the FTS table must join in. */
  match?: string;
  /** Whether the query has words of its own (then score orders by default). */
  hasText: boolean;
  /** The title a plain query names, or starts (fts-query.ts titleKeyOfQuery): notes titled so rank first. */
  titleKey?: TitleOfQuery;
  /** Words only: no exclusion, phrase filter or other filter (search-broad.ts may rank it). */
  wordsOnly: boolean;
  /** A question of several words: notes matching this (every word) rank first (fts-query.ts). */
  every?: string;
  /** A question of several words: its terms, one expression each. */
  questionTerms?: string[];
}
