/**
 * Seed 003 §10.1: `tag:`, `before:` and `after:` are taken out of the query and join the
 * `tags` / `date_before` / `date_after` arguments; what remains is the full-text query. Dates are
 * UTC days: before D means modified before the end of D, after D means after its start.
 */
import { invalid } from './errors.js';

export interface ListFilters {
  text: string;
  tags: string[];
  /** Epoch seconds, exclusive. */
  before?: number;
  after?: number;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

function dayStart(date: string, field: string): number {
  const m = DAY.exec(date);
  const ms = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : NaN;
  // Date.UTC rolls 2024-02-31 over into March; a real day reads back the same.
  if (!Number.isFinite(ms) || new Date(ms).toISOString().slice(0, 10) !== date) throw invalid(field, `"${date}" is not a calendar date (YYYY-MM-DD).`);
  return ms / 1000;
}

export function listFilters(args: { query?: string | undefined; tags?: string[] | undefined; date_before?: string | undefined; date_after?: string | undefined }): ListFilters {
  const tags = new Set(args.tags ?? []);
  let before = args.date_before !== undefined ? dayStart(args.date_before, 'date_before') + 86_400 : undefined;
  let after = args.date_after !== undefined ? dayStart(args.date_after, 'date_after') : undefined;
  let text = args.query ?? '';
  text = text.replace(/(?<!\S)tag:(\S+)/g, (_, tag: string) => (tags.add(tag), ' '));
  text = text.replace(/(?<!\S)before:(\d{4}-\d{2}-\d{2})(?!\S)/g, (_, date: string) => ((before = Math.min(before ?? Infinity, dayStart(date, 'query') + 86_400)), ' '));
  text = text.replace(/(?<!\S)after:(\d{4}-\d{2}-\d{2})(?!\S)/g, (_, date: string) => ((after = Math.max(after ?? -Infinity, dayStart(date, 'query'))), ' '));
  return { text: text.replace(/\s+/g, ' ').trim(), tags: [...tags], ...(before !== undefined ? { before } : {}), ...(after !== undefined ? { after } : {}) };
}
