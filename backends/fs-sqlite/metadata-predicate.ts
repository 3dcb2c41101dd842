/**
 * Metadata predicates → SQL over `note_metadata` (one row per scalar, one per list element,
 * each with its `value_type`). Every comparison dispatches on the stored type, so `priority >= 3`
 * compares numbers, `due < 2024-06-01` compares instants and `tags = x` tests each element.
 * User values are always bound parameters; only operators from a closed list reach the SQL text.
 */
import {
  METADATA_OPERATORS,
  type MetadataOperator,
  type MetadataPredicate,
  type MetadataScalar,
} from '../../kernel/backend.js';
import { ValidationError } from '../../kernel/errors.js';
import { isDateLike, listOf, numberOf, scalarOf } from '../../toolkit/search/metadata-values.js';

/** Named parameters for one statement: deterministic names, so equal shapes share a cached statement. */
export class QueryParams {
  readonly values: Record<string, unknown> = {};
  private next = 0;

  add(value: unknown): string {
    const name = `p${this.next++}`;
    this.values[name] = value;
    return `@${name}`;
  }
}

// The shape index-db.ts records as `date`; anything else is not compared as an instant.
// A list element holds its text only; it compares as a number when it reads back unchanged.
export const NUMERIC_TEXT = 'CAST(CAST(m.value AS NUMERIC) AS TEXT) = m.value';

type Comparison = '=' | '<' | '>' | '<=' | '>=';

/**
 * How a predicate meets `notes n`: `exists` checks one note (a seek on (key, note_id) in the
 * search index); `in` lists the notes it holds for (a scan of the key's entries), which lets the
 * predicate drive the query when nothing narrower (a type) does.
 */
export type PredicateForm = 'exists' | 'in';

/** A WHERE term over `notes n` that holds when the note satisfies the predicate. */
export function metadataCondition(
  predicate: MetadataPredicate,
  index: number,
  params: QueryParams,
  form: PredicateForm = 'exists',
): string {
  const at = `metadata.${index}`;
  if (typeof predicate.key !== 'string' || predicate.key.trim() === '') {
    throw new ValidationError(`${at}.key: give the metadata key to filter on, e.g. "status".`, { field: `${at}.key` });
  }
  const operator = (predicate.operator ?? '=') as MetadataOperator;
  if (!(METADATA_OPERATORS as readonly string[]).includes(operator)) {
    throw new ValidationError(
      `${at}.operator: unknown operator "${String(operator)}"; use one of ${METADATA_OPERATORS.join(' ')}.`,
      {
        field: `${at}.operator`,
        allowed: [...METADATA_OPERATORS],
      },
    );
  }
  const key = params.add(predicate.key);
  const holding = (condition: string, how: PredicateForm = form) =>
    how === 'in'
      ? `n.id IN (SELECT m.note_id FROM note_metadata m WHERE m.key = ${key} AND ${condition})`
      : `EXISTS (SELECT 1 FROM note_metadata m WHERE m.key = ${key} AND m.note_id = n.id AND ${condition})`;
  if (operator === 'IN') return holding(equalAny(listOf(predicate.value, `${at}.value`), params));
  const value = scalarOf(predicate.value, operator, `${at}.value`);
  if (operator === 'LIKE') return holding(`m.value LIKE ${params.add(String(value))}`);
  // "Has the key, and no value equals": the exclusion is always a per-note check.
  if (operator === '!=') return `${holding('1')} AND NOT ${holding(equalAny([value], params), 'exists')}`;
  if (operator === '=') return holding(equalAny([value], params));
  return holding(`(${compare(operator, value, params)})`);
}

/**
 * Equality with any of `values`. Apart from dates (equal instants, any spelling), an equal row
 * holds one of a few exact texts: the value itself, its lower case (booleans) or its canonical
 * number (numbers are stored as JavaScript prints them). Those texts find the rows through the
 * index; the typed comparison then confirms each one.
 */
function equalAny(values: readonly MetadataScalar[], params: QueryParams): string {
  const typed = values.map((v) => compare('=', v, params)).join(' OR ');
  if (values.some((v) => v === null || isDateLike(v))) return `(${typed})`;
  const texts = new Set<string>();
  for (const v of values) {
    const text = String(v);
    texts.add(text);
    texts.add(text.toLowerCase());
    const num = numberOf(v as Exclude<MetadataScalar, null>);
    if (num !== null) texts.add(String(num));
  }
  return `m.value IN (${[...texts].map((t) => params.add(t)).join(', ')}) AND (${typed})`;
}

/** One comparison of a `note_metadata` row (alias `m`) with a value, by the row's stored type. */
function compare(op: Comparison, value: MetadataScalar, params: QueryParams): string {
  if (value === null) return "m.value_type = 'null'";
  const text = params.add(String(value));
  const num = params.add(numberOf(value));
  const date = params.add(isDateLike(value) ? String(value).trim() : null);
  return `CASE m.value_type
      WHEN 'number' THEN CAST(m.value AS REAL) ${op} ${num}
      WHEN 'date' THEN julianday(m.value) ${op} julianday(${date})
      WHEN 'boolean' THEN m.value ${op} lower(${text})
      WHEN 'array' THEN (CASE WHEN ${num} IS NOT NULL AND ${NUMERIC_TEXT} THEN CAST(m.value AS REAL) ${op} ${num} ELSE m.value ${op} ${text} END)
      ELSE m.value ${op} ${text} END`;
}
