/**
 * `list` (seed 003 §10.1): the cache's notes, filtered by trash status, tags and modification
 * dates, full-text ranked first when the query holds words, then sorted by sort_by / sort_order,
 * one page at a time. Reads the local cache only (as fresh as the last sync).
 */
import { requireMember } from '../../../kernel/backend.js';
import type { NoteSummary } from '../../../kernel/note.js';
import { SEARCH_INDEX } from '../../../kernel/tokens.js';
import { defineTool, type ToolContext } from '../../../kernel/tool.js';
import { listFilters, type ListFilters } from '../list-filters.js';
import { isTrashed, listItemOf, previewOf, textOf } from '../note-data.js';
import { ListInputSchema, type ListOutput, ListOutputSchema } from '../schemas.js';

type Candidate = { note: NoteSummary; score: number };

export const listTool = defineTool({
  name: 'list',
  description:
    'List or search notes (local cache, refreshed by background sync or manage {action:"sync"}). query: words or a question (notes holding every word first; "phrases", prefix*, -exclude, a OR b), plus tag:NAME (-tag:NAME), before:YYYY-MM-DD, after:YYYY-MM-DD, trash:0|1|any filters. Best matches first for a text query, else most recently modified. Returns {content:[{type,uuid,text,local_version,tags,modified_at,trash}], next_page?}.',
  input: ListInputSchema,
  requires: ['full-text'],
  output: ListOutputSchema,
  annotations: { title: 'List notes', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async handler(args, ctx): Promise<ListOutput> {
    const limit = args.limit ?? 20;
    const page = args.page ?? 1;
    const filters = listFilters(args);
    const keep = keeper(filters, args.trash_status ?? filters.trash ?? 0);
    const field = args.sort_by === 'created_at' ? 'created' : 'updated';
    const direction = args.sort_order === 'ASC' ? 1 : -1;
    const byField = (a: NoteSummary, b: NoteSummary) => direction * (Date.parse(a[field]) - Date.parse(b[field]));
    // Read ranked (or sorted) windows until the page and one more note have passed the filters:
    // a page costs what it shows, not what the whole account holds.
    const need = page * limit + 1;
    let matches: Candidate[];
    if (filters.text) {
      const search = requireMember(ctx.tryResolve(SEARCH_INDEX), ctx.vault.storageBackend, 'full-text', 'tool list');
      matches = await collect(need, keep, async (offset, size) => {
        const { hits } = await search.search({ text: filters.text, limit: size, offset });
        const out: Candidate[] = [];
        for (const hit of hits) {
          const note = hit.note ?? (await ctx.notes.get(hit.id));
          if (note) out.push({ note, score: hit.score });
        }
        return { batch: out, read: hits.length };
      });
      matches.sort((a, b) => b.score - a.score || byField(a.note, b.note));
    } else {
      const order = { orderBy: field, direction: direction > 0 ? 'asc' : 'desc' } as const;
      matches = await collect(need, keep, async (offset, size) => {
        const notes = await ctx.notes.list({ ...order, limit: size, offset });
        return { batch: notes.map((note) => ({ note, score: 0 })), read: notes.length };
      });
    }
    const slice = matches.slice((page - 1) * limit, page * limit);
    const content = await Promise.all(slice.map(({ note }) => item(note, ctx)));
    return { content, ...(matches.length > page * limit ? { next_page: page + 1 } : {}) };
  },
});

/** Windows of growing size from `read(offset, size)` until `need` candidates pass `keep`, or the source ends. */
async function collect(
  need: number,
  keep: (note: NoteSummary) => boolean,
  read: (offset: number, size: number) => Promise<{ batch: Candidate[]; read: number }>,
): Promise<Candidate[]> {
  const kept: Candidate[] = [];
  let offset = 0;
  let size = Math.max(50, need * 2);
  for (;;) {
    const { batch, read: count } = await read(offset, size);
    for (const candidate of batch) if (keep(candidate.note)) kept.push(candidate);
    if (kept.length >= need || count < size) return kept;
    offset += count;
    size *= 2;
  }
}

function keeper(filters: ListFilters, trashStatus: number): (note: NoteSummary) => boolean {
  return (note) => {
    if (trashStatus !== 2 && isTrashed(note) !== (trashStatus === 1)) return false;
    if (!filters.tags.every((tag) => note.tags.includes(tag))) return false;
    if (filters.withoutTags.some((tag) => note.tags.includes(tag))) return false;
    const modified = Date.parse(note.updated) / 1000;
    if (filters.before !== undefined && !(modified < filters.before)) return false;
    if (filters.after !== undefined && !(modified >= filters.after)) return false;
    return true;
  };
}

/** A note whose first line is blank is previewed by its first non-blank line, which needs its text. */
async function item(note: NoteSummary, ctx: ToolContext) {
  if (note.title.trim() !== '') return listItemOf(note, previewOf(note.title));
  const full = await ctx.notes.get(note.id);
  return listItemOf(note, full ? previewOf('', textOf(full)) : '(empty note)');
}
