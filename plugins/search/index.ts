/**
 * search: seed 000's three search tools over the kernel's SearchIndex, so any backend with
 * `full-text` answers `search_notes` and `search_notes_advanced`, and any with `sql` answers
 * `search_notes_sql` too.
 */
import { definePlugin } from '../../kernel/plugin.js';
import { requireMember } from '../../kernel/backend.js';
import type { AnyTool } from '../../kernel/tool.js';
import { searchOptions, type SearchOptions } from './config.js';
import { searchNotesAdvancedTool } from './tools/search-notes-advanced.js';
import { searchNotesSqlTool } from './tools/search-notes-sql.js';
import { searchNotesTool } from './tools/search-notes.js';

export { searchOptions, type SearchOptions } from './config.js';
export type { SearchResponse, SearchResult } from './render.js';

export const searchPlugin = definePlugin<SearchOptions>({
  id: 'search',
  description:
    'search_notes (ranked words or regex), search_notes_advanced (typed filters, sorts) and search_notes_sql (read-only SQL).',
  dependsOn: ['notes'],
  requires: ['full-text'],
  config: searchOptions,
  register(ctx) {
    const index = requireMember(ctx.search, ctx.vault.storageBackend, 'full-text', 'plugin search');
    const deps = { index, options: ctx.options };
    const tools: AnyTool[] = [searchNotesTool(deps), searchNotesAdvancedTool(deps)];
    const sql = index.sql?.bind(index);
    if (ctx.capabilities.has('sql')) {
      tools.push(
        searchNotesSqlTool({
          ...deps,
          sql: requireMember(sql, ctx.vault.searchBackend ?? ctx.vault.storageBackend, 'sql', 'search_notes_sql'),
        }),
      );
    }
    return { tools };
  },
});
