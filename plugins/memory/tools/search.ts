import { z } from 'zod';
import { SEARCH_INDEX } from '../../../kernel/tokens.js';
import { defineTool } from '../../../kernel/tool.js';
import { searchEntries } from '../search.js';
import { timestampForm } from '../options.js';
import { entryListItemOutput } from '../view.js';

export const memorySearch = defineTool({
  name: 'memory_search',
  description:
    'Search memory titles and bodies by words or a question: entries holding every word first, then those holding some (case and accents ignored; "phrase", prefix*, -exclude, a OR b). Best matches first, at most 50, each with a snippet.',
  input: z.object({
    query: z
      .string()
      .min(1)
      .describe('words or a question, e.g. "igor design" or "what did Igor decide about the design?"'),
  }),
  output: z.object({ result: z.array(z.object({ ...entryListItemOutput, score: z.number(), snippet: z.string() })) }),
  annotations: { title: 'Search memories', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: (args, ctx) =>
    searchEntries(ctx.notes, ctx.tryResolve(SEARCH_INDEX), ctx.vault.storageBackend, args.query, timestampForm(ctx)),
});
