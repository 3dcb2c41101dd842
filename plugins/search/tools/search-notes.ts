/** `search_notes` (seed 000): ranked words, or a bounded regex, over the vault's notes. */
import { z } from 'zod';
import { defineTool } from '../../../kernel/tool.js';
import { vaultIdField } from '../../../kernel/vault-id.js';
import { renderHits, respond, type SearchResponse, searchOutput } from '../render.js';
import { ANNOTATIONS, namingArguments, searchFieldsField, type SearchToolDeps } from './common.js';

export const SEARCH_NOTES_MAX_LIMIT = 100;

const input = z.object({
  query: z
    .string()
    .max(1000)
    .default('')
    .describe('Words to find (all must match): "exact phrase", plan* (prefix), -word (exclude), a OR b. Empty: most recently updated notes'),
  type_filter: z.string().min(1).optional().describe('Only notes of this type, e.g. "meeting"'),
  limit: z.number().int().min(1).max(SEARCH_NOTES_MAX_LIMIT).default(10).describe('Most results'),
  offset: z.number().int().min(0).default(0).describe('Skip this many (paging; see has_more)'),
  use_regex: z.boolean().default(false).describe('Treat query as a JavaScript regex over title and content (case-insensitive; /source/flags to choose flags)'),
  fields: searchFieldsField,
  vault_id: vaultIdField,
});

export function searchNotesTool(deps: SearchToolDeps) {
  return defineTool({
    name: 'search_notes',
    description: 'Search notes by words (ranked, title above content, snippets with <mark>ed matches) or by regex.',
    input,
    output: searchOutput,
    annotations: { title: 'Search notes', ...ANNOTATIONS },
    async handler(args, ctx): Promise<SearchResponse> {
      const page = await namingArguments('search_notes', { text: 'query', type: 'type_filter', regex: 'use_regex' }, () =>
        deps.index.search({
          text: args.query,
          ...(args.type_filter !== undefined ? { type: args.type_filter } : {}),
          limit: args.limit,
          offset: args.offset,
          ...(args.use_regex ? { regex: true, timeoutMs: deps.options.regexTimeoutMs } : {}),
        }),
      );
      const results = await renderHits(page.hits, (id) => ctx.notes.get(id));
      const response = respond(results, { total: page.total, offset: args.offset }, args.fields);
      return page.notice ? { ...response, notice: page.notice } : response;
    },
  });
}
