/**
 * memory_search: the vault's search index (the agent-memory profile's `keyword-search`) over
 * titles and bodies, as the toolkit's parser reads the query (docs/search-syntax.md): a question finds
 * entries holding any of its words, those holding every one first, by BM25. A vault configured
 * without a search backend is told which to add.
 */
import type { NoteService } from '../../kernel/notes.js';
import { requireMember, type SearchIndex } from '../../kernel/backend.js';
import type { TimestampForm } from './options.js';
import { listItem, type EntryListItem } from './view.js';

export type SearchHitView = EntryListItem & {
  score: number;
  snippet: string;
};

const MAX_HITS = 50;

export async function searchEntries(
  notes: NoteService,
  index: SearchIndex | undefined,
  storageBackend: string,
  query: string,
  form: TimestampForm = 'iso',
): Promise<SearchHitView[]> {
  const search = requireMember(index, storageBackend, 'full-text', 'memory_search');
  const page = await search.search({ text: query, limit: MAX_HITS });
  const out: SearchHitView[] = [];
  for (const hit of page.hits) {
    const summary = hit.note ?? (await notes.get(hit.id));
    if (summary) out.push({ ...listItem(summary, form), score: hit.score, snippet: hit.snippet });
  }
  return out;
}
