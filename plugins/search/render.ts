/**
 * seed 000's search response: `{ results, total, has_more }`, each result in its key order.
 * Field filtering keeps the search-specific fields (score, snippet, filename, path) whatever
 * `fields` asks for, as the seed says.
 */
import { z } from 'zod';
import type { SearchHit, SearchHitNote } from '../../kernel/backend.js';
import type { Metadata, Note } from '../../kernel/note.js';
import { locationOf } from '../../toolkit/note-location.js';
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
  /** search_notes_sql: how long the query ran, as the original reports it. */
  query_time_ms?: number;
}

export type ResultNote = SearchHitNote | Note;

/** The note each rendered result came from: `fields` may ask for what the default shape leaves out. */
const NOTE_OF = new WeakMap<object, ResultNote>();

export function renderResult(note: ResultNote, score: number, snippet: string): SearchResult {
  const { path, filename, size } = locationOf(note);
  const result: SearchResult = {
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
  NOTE_OF.set(result, note);
  return result;
}

/**
 * Core fields seed 000 lets `fields` name (id, type, title, content, content_hash, created,
 * updated) that the result shape does not carry by default: added only when asked for, so
 * `fields: ["updated"]` answers the note's update time instead of dropping it.
 */
const ON_REQUEST = ['updated', 'content_hash', 'content'] as const;

async function withRequested(
  result: Record<string, unknown>,
  fields: readonly string[],
  read: (id: string) => Promise<Note | undefined>,
): Promise<Record<string, unknown>> {
  const note = NOTE_OF.get(result);
  const wanted = ON_REQUEST.filter((f) => fields.includes(f) && !Object.hasOwn(result, f));
  if (!note || !wanted.length) return result;
  const extra: Record<string, unknown> = {};
  if (wanted.includes('updated')) extra.updated = note.updated;
  if (wanted.includes('content_hash')) extra.content_hash = note.contentHash;
  if (wanted.includes('content')) {
    const content =
      'content' in note && typeof note.content === 'string'
        ? note.content
        : (await read(note.id).catch(() => undefined))?.content;
    if (content !== undefined) extra.content = content;
  }
  return { ...result, ...extra };
}

export async function respond(
  results: ReadonlyArray<Record<string, unknown>>,
  page: { total: number; offset: number },
  fields: readonly string[] | undefined,
  read: (id: string) => Promise<Note | undefined>,
): Promise<SearchResponse> {
  const shown = fields === undefined ? results : await Promise.all(results.map((r) => withRequested(r, fields, read)));
  return {
    results: shown.map((r) => filterFields(r, fields, ALWAYS_KEPT)),
    total: page.total,
    has_more: page.offset + results.length < page.total,
  };
}

/** Hits whose note the index did not carry are read through the note service (one read each). */
export async function renderHits(
  hits: readonly SearchHit[],
  read: (id: string) => Promise<Note | undefined>,
): Promise<SearchResult[]> {
  const out: SearchResult[] = [];
  for (const hit of hits) {
    const note = hit.note ?? (await read(hit.id));
    if (note) out.push(renderResult(note, hit.score, hit.snippet));
  }
  return out;
}

/** The first ~200 characters of a body, for results that have no match to centre on. */
export function excerpt(text: string, max = 200): string {
  const flat = text
    .replace(/^#{1,6}\s+/gm, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (flat.length <= max) return flat;
  const cut = flat.lastIndexOf(' ', max);
  return `${flat.slice(0, cut > max / 2 ? cut : max)}…`;
}

/** The search answer as an output schema; each result may be trimmed by `fields`. */
export const searchOutput = z.object({
  results: z.array(
    z
      .object({
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
        updated: z.string(),
        content_hash: z.string(),
        content: z.string(),
      })
      .partial(),
  ),
  total: z.number(),
  has_more: z.boolean(),
  notice: z.string().optional(),
  query_time_ms: z.number().optional(),
});
