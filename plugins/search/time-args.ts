/**
 * Time arguments of search_notes_advanced: durations (`7d`, `2w`, `1m`, `1y`, and `12h`) meaning
 * "that long ago", or ISO-8601 dates and times. Checked by zod, so a malformed one names its
 * argument like any other bad argument.
 */
import { z } from 'zod';
import type { TimeRange } from '../../kernel/backend.js';

const DURATION = /^(\d{1,6})([hdwmy])$/;

export const durationField = () =>
  z
    .string()
    .regex(DURATION, 'a duration such as 12h, 7d, 2w, 1m or 1y')
    .optional()
    .describe('Last 12h, 7d, 2w, 1m (months) or 1y');

export const instantField = (what: string) =>
  z
    .string()
    .refine(
      (v) => DURATION.test(v) || !Number.isNaN(Date.parse(v)),
      'an ISO-8601 date/time (2024-06-01, 2024-06-01T12:00:00Z) or a duration such as 7d',
    )
    .optional()
    .describe(`${what}: ISO-8601, or a duration ago (7d)`);

/** The instant `text` names: a duration counts back from `now`. */
export function instantOf(text: string, now: Date): string {
  const match = DURATION.exec(text);
  if (!match) return new Date(Date.parse(text)).toISOString();
  const amount = Number(match[1]);
  const at = new Date(now.getTime());
  switch (match[2]) {
    case 'h':
      at.setUTCHours(at.getUTCHours() - amount);
      break;
    case 'd':
      at.setUTCDate(at.getUTCDate() - amount);
      break;
    case 'w':
      at.setUTCDate(at.getUTCDate() - amount * 7);
      break;
    case 'm':
      at.setUTCMonth(at.getUTCMonth() - amount);
      break;
    default:
      at.setUTCFullYear(at.getUTCFullYear() - amount);
  }
  return at.toISOString();
}

/** `within` and `after` both bound from below: the later one wins. */
export function rangeOf(args: { within?: string; after?: string; before?: string }, now: Date): TimeRange | undefined {
  const lows = [args.within, args.after].filter((v): v is string => v !== undefined).map((v) => instantOf(v, now));
  const after = lows.sort().at(-1);
  const before = args.before !== undefined ? instantOf(args.before, now) : undefined;
  if (after === undefined && before === undefined) return undefined;
  return { ...(after !== undefined ? { after } : {}), ...(before !== undefined ? { before } : {}) };
}
