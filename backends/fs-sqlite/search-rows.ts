/**
 * Index rows → search hits. A hit carries the note's indexed summary and metadata, so a tool
 * can answer without reading one file per hit. Statements are prepared once per distinct text:
 * a search's SQL varies only with the shape of the query, not its values.
 */
import type Database from 'better-sqlite3';
import type { SearchHit, SearchHitNote } from '../../kernel/backend.js';
import { toSummary, type NoteRow } from './note-row.js';

/** The columns every hit query selects from `notes n`. */
export const HIT_COLUMNS =
  'n.id AS id, n.title AS title, n.type AS type, n.filename AS filename, n.path AS path, n.created AS created, ' +
  'n.updated AS updated, n.size AS size, n.content_hash AS content_hash, n.tags_json AS tags_json, n.metadata_json AS metadata_json';

/** Enough leading content for an excerpt when there is no match to centre on. */
export const LEAD = 'substr(n.content, 1, 400) AS lead';

/** The content around the first matches, marked; needs the FTS row of a MATCH. */
export const SNIPPET = "snippet(notes_fts, 2, '<mark>', '</mark>', '…', 32) AS snippet";

export interface HitRow extends NoteRow {
  score?: number;
  snippet?: string | null;
  lead?: string | null;
}

export function hitNote(row: HitRow): SearchHitNote {
  const note: SearchHitNote = toSummary(row);
  if (!row.type) delete note.type; // flat vaults: no type rather than an empty one
  return note;
}

export function toHit(row: HitRow): SearchHit {
  const snippet = row.snippet && row.snippet.includes('<mark>') ? flatten(row.snippet) : leadExcerpt(row.lead ?? '');
  return { id: row.id, score: row.score ?? 0, snippet, note: hitNote(row) };
}

/** The first ~200 characters of the body, cut at a word, headings' `#` marks dropped. */
export function leadExcerpt(text: string, max = 200): string {
  const flat = flatten(text.replace(/^#{1,6}\s+/gm, ''));
  if (flat.length <= max) return flat;
  const cut = flat.lastIndexOf(' ', max);
  return `${flat.slice(0, cut > max / 2 ? cut : max)}…`;
}

function flatten(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Prepared statements by SQL text, bounded so odd query shapes cannot grow it without end. */
export class StatementCache {
  private readonly cache = new Map<string, Database.Statement>();

  constructor(
    private readonly db: Database.Database,
    private readonly max = 128,
  ) {}

  get(sql: string): Database.Statement {
    let stmt = this.cache.get(sql);
    if (stmt) {
      // Re-insert: Map order doubles as least-recently-used order.
      this.cache.delete(sql);
      this.cache.set(sql, stmt);
      return stmt;
    }
    stmt = this.db.prepare(sql);
    this.cache.set(sql, stmt);
    if (this.cache.size > this.max) this.cache.delete(this.cache.keys().next().value as string);
    return stmt;
  }
}

/**
 * Hit rows, with snippets, of the notes `rids` among those matching `match` (an FTS5 expression),
 * by rowid. FTS5 answers `rowid IN (…)` with one lookup per rowid, each evaluating the match
 * afresh: cheap for words (a seek per word), but a prefix term (`quas*`) is merged from every
 * word it covers at each lookup (5 ms for 10 rows at 10,000 notes). Those read the matches once
 * between the smallest and largest rowid instead (1 ms).
 */
export function hitRowsByRowid(cache: StatementCache, match: string, rids: readonly number[]): Map<number, HitRow> {
  if (!rids.length) return new Map();
  const values = { m: match, rids: JSON.stringify(rids), lo: Math.min(...rids), hi: Math.max(...rids) };
  const which = match.includes('*') ? 'f.rowid BETWEEN @lo AND @hi AND +f.rowid' : 'f.rowid';
  const rows = cache
    .get(
      `SELECT ${HIT_COLUMNS}, f.rowid AS rid, ${SNIPPET}, ${LEAD} FROM notes_fts f JOIN notes n ON n.rowid = f.rowid
      WHERE f.notes_fts MATCH @m AND ${which} IN (SELECT value FROM json_each(@rids))`,
    )
    .all(values) as Array<HitRow & { rid: number }>;
  return new Map(rows.map((r) => [r.rid, r]));
}

/** Summary rows for ids (any number, one statement), in the order the ids were given. */
export function rowsByIds(cache: StatementCache, ids: readonly string[]): Map<string, HitRow> {
  if (!ids.length) return new Map();
  const rows = cache
    .get(`SELECT ${HIT_COLUMNS}, ${LEAD} FROM notes n WHERE n.id IN (SELECT value FROM json_each(?))`)
    .all(JSON.stringify(ids)) as HitRow[];
  return new Map(rows.map((r) => [r.id, r]));
}
