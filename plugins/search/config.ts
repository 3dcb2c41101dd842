/** The search plugin's options (`plugins: { search: { ... } }` in the config). */
import { z } from 'zod';

export const searchOptions = z
  .object({
    sqlTimeoutMs: z
      .number()
      .int()
      .min(100)
      .max(600_000)
      .default(30_000)
      .describe('search_notes_sql: stop a query after this long (ms)'),
    sqlMaxRows: z
      .number()
      .int()
      .min(1)
      .max(100_000)
      .default(1_000)
      .describe('search_notes_sql: the most rows one query may return'),
    regexTimeoutMs: z
      .number()
      .int()
      .min(50)
      .max(120_000)
      .default(5_000)
      .describe('search_notes with use_regex: stop the scan after this long (ms)'),
  })
  .strict();

export type SearchOptions = z.infer<typeof searchOptions>;
