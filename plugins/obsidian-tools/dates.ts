/** Calendar days as seed 004 speaks of them: `YYYY-MM-DD` in the server's local time zone. */
import { z } from 'zod';

export function localDay(date: Date): string {
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** A real calendar day (`2024-02-30` is refused). */
export const dayArg = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'a date as YYYY-MM-DD')
  .refine((day) => {
    const [y, m, d] = day.split('-').map(Number) as [number, number, number];
    const date = new Date(Date.UTC(y, m - 1, d));
    return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
  }, 'not a calendar date');

/**
 * The day a frontmatter date names: `2023-08-11`, `[[2023-08-11]]` (a link to a daily note),
 * or an ISO instant (its local day); undefined for anything else.
 */
export function dayOfValue(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value
    .trim()
    .replace(/^\[\[(.*)\]\]$/, '$1')
    .trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) return text;
  if (!/^\d{4}-\d{2}-\d{2}[T ]/.test(text)) return undefined;
  const time = Date.parse(text);
  return Number.isNaN(time) ? text.slice(0, 10) : localDay(new Date(time));
}
