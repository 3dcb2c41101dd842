/**
 * seed 000's search response: `{ results, total, has_more }`, each result in its key order.
 * Field filtering keeps the search-specific fields (score, snippet, filename, path) whatever
 * `fields` asks for, as the seed says.
 */
import { z } from 'zod';
import type { SearchHit, SearchHitNote } from '../../kernel/backend.js';
import { locationOf, type Metadata, type Note } from '../../kernel/note.js';
import { filterFields } from '../../toolkit/fields.js';

export const ALWAYS_KEPT = ['score', 'snippet', 'filename', 'path'] as const;

// A type alias, not an interface: it must be assignable to Record<string, unknown> for filtering.
export type SearchResult = {
  id: string;
  title: string;
  type: string | undefined;
  tags: string[];
  score: number;
  snippet: string;
  lastUpdated: string;
  filename: string;
  path: string;
  created: string;
  modified: string;
  size: number;
  metadata: Metadata;
};

export interface SearchResponse {
  results: Array<Record<string, unknown>>;
  total: number;
  has_more: boolean;
  /** Set when the ranking saw only part of the index (a search backend still building vectors). */
  notice?: string;
}

export type ResultNote = SearchHitNote | Note;

export function renderResult(note: ResultNote, score: number, snippet: string): SearchResult {
  const { path, filename, size } = locationOf(note);
  return {
    id: note.id,
    title: note.title,
    type: note.type,
    tags: note.tags,
    score,
    snippet,
    lastUpdated: note.updated,
    filename,
    path,
    created: note.created,
    modified: note.updated,
    size,
    metadata: note.metadata,
  };
}

export function respond(
  results: ReadonlyArray<Record<string, unknown>>,
  page: { total: number; offset: number },
  fields: readonly string[] | undefined,
): SearchResponse {
  return {
    results: results.map((r) => filterFields(r, fields, ALWAYS_KEPT)),
    total: page.total,
    has_more: page.offset + results.length < page.total,
  };
}

/** Hits whose note the index did not carry are read through the note service (one read each). */
export async function renderHits(hits: readonly SearchHit[], read: (id: string) => Promise<Note | undefined>): Promise<SearchResult[]> {
  const out: SearchResult[] = [];
  for (const hit of hits) {
    const note = hit.note ?? (await read(hit.id));
    if (note) out.push(renderResult(note, hit.score, hit.snippet));
  }
  return out;
}

/** The first ~200 characters of a body, for results that have no match to centre on. */
export function excerpt(text: string, max = 200): string {
  const flat = text.replace(/^#{1,6}\s+/gm, '').replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.lastIndexOf(' ', max);
  return `${flat.slice(0, cut > max / 2 ? cut : max)}…`;
}

/** The search answer as an output schema; each result may be trimmed by `fields`. */
export const searchOutput = z.object({
  results: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      type: z.string(),
      tags: z.array(z.string()),
      score: z.number(),
      snippet: z.string(),
      lastUpdated: z.string(),
      filename: z.string(),
      path: z.string(),
      created: z.string(),
      modified: z.string(),
      size: z.number(),
      metadata: z.record(z.string(), z.unknown()),
    }).partial(),
  ),
  total: z.number(),
  has_more: z.boolean(),
  notice: z.string().optional(),
});
