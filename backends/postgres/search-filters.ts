/**
 * Capability `metadata-query` on the notes table: metadata predicates, time windows, a content
 * phrase and the sort, as WHERE and ORDER BY terms over `notes n`. As fs-sqlite's filters: each
 * comparison goes by the type the note stores (numbers as numbers, date-like text as instants,
 * booleans and text as text), each element of a list is tested on its own, `!=` means "has the key,
 * and no value equals"; a bad member is refused naming its SearchQuery path. Values are always
 * bound parameters; only operators from a closed list reach the SQL text.
 */
import {
  METADATA_OPERATORS,
  type MetadataOperator,
  type MetadataPredicate,
  type MetadataScalar,
  SEARCH_SORT_FIELDS,
  type SearchQuery,
  type SearchSort,
  type TimeRange,
} from '../../kernel/backend.js';
import { ValidationError } from '../../kernel/errors.js';
import { isDateLike, listOf, numberOf, scalarOf } from '../../toolkit/search/metadata-values.js';
import { foldWords } from '../../toolkit/search/fold-letters.js';

export interface Binder {
  add(value: unknown): string;
}

const DATE_RE = '^\\d{4}-\\d{2}-\\d{2}([T ][0-9:.]+(Z|[+-]\\d{2}:?\\d{2})?)?$';
type Comparison = '=' | '<' | '>' | '<=' | '>=';

/** WHERE terms (ANDed) for the structured members of the query. */
export function filterTerms(S: string, query: SearchQuery, p: Binder): string[] {
  const terms: string[] = [];
  terms.push(...rangeTerms(S, 'n.created', query.created, 'created', p));
  terms.push(...rangeTerms(S, 'n.updated', query.updated, 'updated', p));
  (query.metadata ?? []).forEach((predicate, i) => terms.push(metadataCondition(S, predicate, i, p)));
  if (query.contentContains !== undefined && query.contentContains.trim() !== '') {
    const words = foldWords(query.contentContains).split(/\s+/).filter(Boolean);
    // Body words only (weight D), in this order, the last one a prefix.
    const phrase = words
      .map((w, k) => `'${w.replace(/'/g, "''")}':${k === words.length - 1 ? '*' : ''}D`)
      .join(' <-> ');
    if (phrase) terms.push(`n.tsv @@ to_tsquery('${S}.stemmed', ${p.add(phrase)})`);
  }
  return terms;
}

function rangeTerms(S: string, column: string, range: TimeRange | undefined, field: string, p: Binder): string[] {
  if (!range) return [];
  const terms: string[] = [];
  if (range.after !== undefined)
    terms.push(`${S}.instant(${column}) >= ${p.add(instant(range.after, `${field}.after`))}::timestamptz`);
  if (range.before !== undefined)
    terms.push(`${S}.instant(${column}) < ${p.add(instant(range.before, `${field}.before`))}::timestamptz`);
  return terms;
}

function instant(value: string, field: string): string {
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw new ValidationError(`${field}: "${value}" is not an ISO-8601 date or time.`, { field });
  return new Date(ms).toISOString();
}

function metadataCondition(S: string, predicate: MetadataPredicate, index: number, p: Binder): string {
  const at = `metadata.${index}`;
  if (typeof predicate.key !== 'string' || predicate.key.trim() === '')
    throw new ValidationError(`${at}.key: give the metadata key to filter on, e.g. "status".`, { field: `${at}.key` });
  const operator = (predicate.operator ?? '=') as MetadataOperator;
  if (!(METADATA_OPERATORS as readonly string[]).includes(operator))
    throw new ValidationError(
      `${at}.operator: unknown operator "${String(operator)}"; use one of ${METADATA_OPERATORS.join(' ')}.`,
      { field: `${at}.operator`, allowed: [...METADATA_OPERATORS] },
    );
  const key = p.add(predicate.key);
  const j = 'n.metadata::jsonb';
  // Each value the key holds: a list's elements, or the value itself.
  const any = (condition: string) =>
    `EXISTS (SELECT 1 FROM jsonb_array_elements(CASE jsonb_typeof(${j} -> ${key}) WHEN 'array' THEN ${j} -> ${key} ELSE jsonb_build_array(${j} -> ${key}) END) AS e(v) WHERE ${condition})`;
  const has = `${j} ? ${key}`;
  if (operator === 'IN') {
    const values = listOf(predicate.value, `${at}.value`);
    return `${has} AND ${any(values.map((v) => compare(S, '=', v, p)).join(' OR '))}`;
  }
  const value = scalarOf(predicate.value, operator, `${at}.value`);
  if (operator === 'LIKE') return `${has} AND ${any(`(e.v #>> '{}') ILIKE ${p.add(String(value))}`)}`;
  if (operator === '!=') return `${has} AND NOT ${any(compare(S, '=', value, p))}`;
  return `${has} AND ${any(compare(S, operator, value, p))}`;
}

/** One comparison of a stored value `e.v` (jsonb) with the query's, by the stored value's type. */
function compare(S: string, op: Comparison, value: MetadataScalar, p: Binder): string {
  if (value === null) return "jsonb_typeof(e.v) = 'null'";
  const text = p.add(String(value));
  const num = p.add(numberOf(value));
  const date = p.add(isDateLike(value) ? String(value).trim() : null);
  const stored = "(e.v #>> '{}')";
  return `(CASE jsonb_typeof(e.v)
      WHEN 'number' THEN ${stored}::numeric ${op} ${num}::numeric
      WHEN 'boolean' THEN ${stored} ${op} lower(${text})
      WHEN 'string' THEN CASE WHEN ${stored} ~ '${DATE_RE}' THEN ${S}.instant(${stored}) ${op} ${S}.instant(${date})
        ELSE ${stored} ${op} ${text} END
      ELSE false END) IS TRUE`;
}

/** ORDER BY terms; `ranked`: a text query, whose relevance is the `score` column. */
export function orderTerms(S: string, sort: readonly SearchSort[] | undefined, ranked: string, p: Binder): string {
  if (!sort || sort.length === 0) return ranked;
  const terms = sort.map((entry, i) => sortTerm(S, entry, i, p)).filter((t): t is string => t !== undefined);
  return [...terms, 'n.id'].join(', ');
}

const CORE_SORT: Record<string, string> = {
  title: 'n.title COLLATE "C"',
  type: 'n.type',
  created: 'n.created',
  updated: 'n.updated',
  size: 'n.size',
};

function sortTerm(S: string, entry: SearchSort, i: number, p: Binder): string | undefined {
  const field = String(entry.field ?? '');
  const order = entry.order ?? 'asc';
  if (order !== 'asc' && order !== 'desc')
    throw new ValidationError(`sort.${i}.order: "${String(order)}" is not asc or desc.`, { field: `sort.${i}.order` });
  const dir = order === 'desc' ? 'DESC' : 'ASC';
  if (field === 'score') return `score ${dir}`;
  const core = CORE_SORT[field];
  if (core) return `${core} ${dir}`;
  if (field.startsWith('metadata.') && field.length > 'metadata.'.length) {
    const v = `(n.metadata::jsonb -> ${p.add(field.slice('metadata.'.length))})`;
    // Numbers as numbers, date-like text as instants, the rest as text; notes without the key last.
    return `(CASE WHEN jsonb_typeof(${v}) = 'number' THEN (${v} #>> '{}')::numeric END) ${dir} NULLS LAST,
      ${S}.instant(${v} #>> '{}') ${dir} NULLS LAST, (${v} #>> '{}') ${dir} NULLS LAST`;
  }
  const hint = field && !field.includes('.') ? ` (for a metadata key write "metadata.${field}")` : '';
  throw new ValidationError(
    `sort.${i}.field: unknown sort field "${field}"; use one of ${SEARCH_SORT_FIELDS.join(', ')} or metadata.<key>${hint}.`,
    { field: `sort.${i}.field`, allowed: [...SEARCH_SORT_FIELDS, 'metadata.<key>'] },
  );
}
