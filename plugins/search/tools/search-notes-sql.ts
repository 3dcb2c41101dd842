/** `search_notes_sql` (seed 000): one read-only SELECT over the index, bounded in time and rows. */
import { z } from 'zod';
import type { SearchIndex } from '../../../kernel/backend.js';
import { defineTool } from '../../../kernel/tool.js';
import { respond, type SearchResponse, searchOutput } from '../render.js';
import { renderSqlRows } from '../sql-rows.js';
import { ANNOTATIONS, namingArguments, searchFieldsField, type SearchToolDeps } from './common.js';
import { limitField, vaultIdField } from '../../../toolkit/tool-fields.js';

const param = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export function searchNotesSqlTool(deps: SearchToolDeps & { sql: NonNullable<SearchIndex['sql']> }) {
  const cap = deps.options.sqlMaxRows;
  return defineTool({
    name: 'search_notes_sql',
    description:
      'One read-only SELECT over the index: notes(id, title, content, type, filename, path, created, updated, size), ' +
      'note_metadata(note_id, key, value, value_type), notes_fts (FTS5). Rows with a note id come back as search results.',
    input: z.object({
      query: z.string().min(1).describe('SELECT or WITH ... SELECT; no PRAGMA or ATTACH'),
      params: z
        .union([z.array(param), z.record(z.string(), param)])
        .optional()
        .describe('For ? (a list) or @name / :name (an object)'),
      limit: limitField(Math.min(100, cap), cap),
      fields: searchFieldsField,
      vault_id: vaultIdField,
    }),
    output: searchOutput,
    annotations: { title: 'Search notes (SQL)', ...ANNOTATIONS },
    async handler(args, ctx): Promise<SearchResponse> {
      // One row past the limit tells whether more exist without counting them all.
      const started = performance.now();
      const rows = await namingArguments('search_notes_sql', {}, () =>
        deps.sql(args.query, args.params, { timeoutMs: deps.options.sqlTimeoutMs, maxRows: args.limit + 1 }),
      );
      const queryTimeMs = Math.round((performance.now() - started) * 100) / 100;
      const page = rows.slice(0, args.limit);
      const results = await renderSqlRows(page, (id) => ctx.notes.get(id));
      const response = await respond(results, { total: results.length, offset: 0 }, args.fields, (id) =>
        ctx.notes.get(id),
      );
      return { ...response, has_more: rows.length > args.limit, query_time_ms: queryTimeMs };
    },
  });
}
