/** `search_notes_advanced` (seed 000): structured filters, typed metadata predicates, sorting, paging. */
import { z } from 'zod';
import { METADATA_OPERATORS, type SearchSortField } from '../../../kernel/backend.js';
import { defineTool } from '../../../kernel/tool.js';
import { renderHits, respond, type SearchResponse, searchOutput } from '../render.js';
import { durationField, instantField, rangeOf } from '../time-args.js';
import { ANNOTATIONS, namingArguments, searchFieldsField, type SearchToolDeps } from './common.js';
import { limitField, nameString, offsetField, vaultIdField } from '../../../toolkit/tool-fields.js';

export const SEARCH_ADVANCED_MAX_LIMIT = 500;

const scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);

const metadataFilter = z.object({
  key: z.string().min(1).describe('e.g. "status" or "tags"'),
  operator: z.enum(METADATA_OPERATORS).default('=').describe('LIKE takes % and _ wildcards; IN a list or "a,b,c"'),
  value: z.union([scalar, z.array(scalar)]).describe('Compared typed: numbers, dates; lists element-wise'),
});

const sortEntry = z.object({
  field: z.string().min(1).describe('title, type, created, updated, size, score or metadata.<key>'),
  order: z.enum(['asc', 'desc']).default('asc'),
});

const input = z.object({
  type: nameString().min(1).optional().describe('Only this note type'),
  metadata_filters: z.array(metadataFilter).max(20).optional().describe('All must hold'),
  updated_within: durationField(),
  updated_after: instantField('At or after'),
  updated_before: instantField('Before'),
  created_within: durationField(),
  created_after: instantField('At or after'),
  created_before: instantField('Before'),
  content_contains: z.string().max(500).optional().describe('These words in this order; case and accents ignored'),
  sort: z.array(sortEntry).max(5).optional().describe('First key wins; default: updated desc'),
  limit: limitField(50, SEARCH_ADVANCED_MAX_LIMIT),
  offset: offsetField,
  fields: searchFieldsField,
  vault_id: vaultIdField,
});

export function searchNotesAdvancedTool(deps: SearchToolDeps) {
  return defineTool({
    name: 'search_notes_advanced',
    description: 'Find notes by type, metadata (typed comparisons), dates and content, sorted.',
    input,
    output: searchOutput,
    annotations: { title: 'Search notes (structured)', ...ANNOTATIONS },
    async handler(args, ctx): Promise<SearchResponse> {
      const now = new Date();
      const updated = rangeOf(
        { within: args.updated_within, after: args.updated_after, before: args.updated_before },
        now,
      );
      const created = rangeOf(
        { within: args.created_within, after: args.created_after, before: args.created_before },
        now,
      );
      const page = await namingArguments(
        'search_notes_advanced',
        { metadata: 'metadata_filters', contentContains: 'content_contains' },
        () =>
          deps.index.search({
            text: '',
            ...(args.type !== undefined ? { type: args.type } : {}),
            ...(args.metadata_filters ? { metadata: args.metadata_filters } : {}),
            ...(updated ? { updated } : {}),
            ...(created ? { created } : {}),
            ...(args.content_contains !== undefined ? { contentContains: args.content_contains } : {}),
            // The backend knows which fields exist and refuses the others, naming sort.N.field.
            ...(args.sort
              ? { sort: args.sort.map((s) => ({ field: s.field as SearchSortField, order: s.order })) }
              : {}),
            limit: args.limit,
            offset: args.offset,
          }),
      );
      const results = await renderHits(page.hits, (id) => ctx.notes.get(id));
      return respond(results, { total: page.total, offset: args.offset }, args.fields, (id) => ctx.notes.get(id));
    },
  });
}
