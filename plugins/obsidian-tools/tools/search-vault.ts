import { z } from 'zod';
import { SEARCH_MODES } from '../../../kernel/backend.js';
import { CapabilityError } from '../../../kernel/errors.js';
import { SEARCH_INDEX } from '../../../kernel/tokens.js';
import { defineTool } from '../../../kernel/tool.js';

export const searchVault = defineTool({
  name: 'search_vault',
  description:
    'Search the vault. mode "hybrid" (default) fuses meaning (sentence vectors) and exact words by Reciprocal Rank Fusion; "semantic" finds notes by meaning even when no word is shared; "keyword" matches every word exactly. Returns the best n_results notes, each with its path (source), the passage that matched (content) and a score.',
  input: z.object({
    query: z.string().trim().min(1).max(2_000).describe('what to look for, in plain words or a question'),
    n_results: z.number().int().min(1).max(50).default(5).describe('how many notes to return (default 5, at most 50)'),
    mode: z.enum(SEARCH_MODES).default('hybrid').describe('hybrid (default) | semantic | keyword'),
  }),
  annotations: { title: 'Search the vault', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async handler(args, ctx) {
    const index = ctx.tryResolve(SEARCH_INDEX);
    if (!index) throw new CapabilityError('search_vault needs a search index; this vault has none.', { capability: 'full-text' });
    const page = await index.search({ text: args.query, limit: args.n_results, mode: args.mode });
    return {
      query: args.query,
      mode: args.mode,
      results: page.hits.map((hit) => ({ source: hit.id, content: hit.snippet, score: hit.score })),
      total: page.total,
    };
  },
});
