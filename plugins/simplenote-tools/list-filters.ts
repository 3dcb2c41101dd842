/**
 * Seed 003 §10.1: `tag:`, `before:`, `after:` and `trash:` are taken out of the query and join the
 * `tags` / `date_before` / `date_after` arguments (the kernel's query parser finds them, quoted
 * values included); what remains is the full-text query. Dates are UTC days: before D means
 * modified before the end of D, after D means after its start.
 */
import { parseQuery } from '../../toolkit/search/query.js';
import { invalid } from './errors.js';

export interface ListFilters {
  text: string;
  tags: string[];
  /** `-tag:NAME`: notes with any of these are left out. */
  withoutTags: string[];
  /** Epoch seconds, exclusive. */
  before?: number;
  after?: number;
  /** `trash:` in the query (seed 003 §9): 0 active, 1 trashed, 2 any; the trash_status argument wins. */
  trash?: number;
}

const TRASH_VALUES: Record<string, number> = {
  '0': 0,
  false: 0,
  no: 0,
  active: 0,
  '1': 1,
  true: 1,
  yes: 1,
  only: 1,
  trashed: 1,
  '2': 2,
  any: 2,
  all: 2,
  both: 2,
};

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

function dayStart(date: string, field: string): number {
  const m = DAY.exec(date);
  const ms = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : NaN;
  // Date.UTC rolls 2024-02-31 over into March; a real day reads back the same.
  if (!Number.isFinite(ms) || new Date(ms).toISOString().slice(0, 10) !== date)
    throw invalid(field, `"${date}" is not a calendar date (YYYY-MM-DD).`);
  return ms / 1000;
}

export function listFilters(args: {
  query?: string | undefined;
  tags?: string[] | undefined;
  date_before?: string | undefined;
  date_after?: string | undefined;
}): ListFilters {
  const tags = new Set(args.tags ?? []);
  let before = args.date_before !== undefined ? dayStart(args.date_before, 'date_before') + 86_400 : undefined;
  let after = args.date_after !== undefined ? dayStart(args.date_after, 'date_after') : undefined;
  const query = parseQuery(args.query ?? '', { fields: ['tag', 'before', 'after', 'trash'] });
  let trash: number | undefined;
  const withoutTags = new Set<string>();
  // `-before:D` is "after D ends", `-after:D` "before D begins".
  const until = (at: number) => (before = Math.min(before ?? Infinity, at));
  const from = (at: number) => (after = Math.max(after ?? -Infinity, at));
  // A `before:`/`after:` not followed by a date shaped YYYY-MM-DD is words of the query, as in seed 003.
  const words = [query.rest];
  for (const { field, value, negated } of query.filters) {
    if (field === 'trash') {
      const status = TRASH_VALUES[value.toLowerCase()];
      if (status === undefined)
        throw invalid(
          'query',
          `trash:${value} is not a trash filter: use trash:0 (active), trash:1 (trashed) or trash:any.`,
        );
      trash = negated && status < 2 ? 1 - status : status;
    } else if (field !== 'tag' && !/^\d{4}-\d{2}-\d{2}$/.test(value))
      words.push(`${negated ? '-' : ''}${field}:${value}`);
    else if (field === 'tag') (negated ? withoutTags : tags).add(value);
    else if (field === 'before') (negated ? from : until)(dayStart(value, 'query') + 86_400);
    else (negated ? until : from)(dayStart(value, 'query'));
  }
  return {
    text: words.join(' ').trim(),
    tags: [...tags],
    withoutTags: [...withoutTags],
    ...(before !== undefined ? { before } : {}),
    ...(after !== undefined ? { after } : {}),
    ...(trash !== undefined ? { trash } : {}),
  };
}
