import { z } from 'zod';
import { SEARCH_INDEX } from '../../../kernel/tokens.js';
import { defineTool } from '../../../kernel/tool.js';
import { searchEntries } from '../search.js';
import { entryListItemOutput, entryViewOutput } from '../view.js';

export const memorySearch = defineTool({
  name: 'memory_search',
  description: 'Full-text search over memory titles and bodies: every word must appear (case and accents ignored). Best matches first, at most 50, each with a snippet.',
  input: z.object({ query: z.string().min(1).describe('words to find, e.g. "igor design"') }),
  output: z.object({ result: z.array(z.object({ ...entryListItemOutput, score: z.number(), snippet: z.string() })) }),
  annotations: { title: 'Search memories', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: (args, ctx) => searchEntries(ctx.notes, ctx.tryResolve(SEARCH_INDEX), args.query),
});
