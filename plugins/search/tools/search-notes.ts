/** `search_notes` (seed 000): ranked words, or a bounded regex, over the vault's notes. */
import { z } from 'zod';
import { defineTool } from '../../../kernel/tool.js';
import { renderHits, respond, type SearchResponse, searchOutput } from '../render.js';
import { ANNOTATIONS, namingArguments, searchFieldsField, type SearchToolDeps } from './common.js';
import { limitField, nameString, offsetField, vaultIdField } from '../../../toolkit/tool-fields.js';

export const SEARCH_NOTES_MAX_LIMIT = 100;

const input = z.object({
  query: z
    .string()
    .max(1000)
    .default('')
    .describe(
      'Words or a question (notes holding every word first, then those holding some); "exact phrase", plan* (prefix), -word (exclude), a OR b; empty: latest notes',
    ),
  type_filter: nameString().min(1).optional().describe('Only this note type'),
  limit: limitField(10, SEARCH_NOTES_MAX_LIMIT),
  offset: offsetField,
  use_regex: z
    .boolean()
    .default(false)
    .describe('query is a JavaScript regex over title and content: case-insensitive, or /source/flags'),
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
      const page = await namingArguments(
        'search_notes',
        { text: 'query', type: 'type_filter', regex: 'use_regex' },
        () =>
          deps.index.search({
            text: args.query,
            ...(args.type_filter !== undefined ? { type: args.type_filter } : {}),
            limit: args.limit,
            offset: args.offset,
            ...(args.use_regex ? { regex: true, timeoutMs: deps.options.regexTimeoutMs } : {}),
          }),
      );
      const results = await renderHits(page.hits, (id) => ctx.notes.get(id));
      const response = await respond(results, { total: page.total, offset: args.offset }, args.fields, (id) =>
        ctx.notes.get(id),
      );
      return page.notice ? { ...response, notice: page.notice } : response;
    },
  });
}
