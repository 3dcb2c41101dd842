/**
 * How the hybrid index answers a SearchQuery. `keyword`: FTS5 over the chunks, bm25 with title ×
 * 10 and heading × 3, a note ranked by its best chunk. `semantic`: the query embedded once, a full
 * cosine scan of the chunk vectors, a note ranked by its best chunk, passages under
 * `minSimilarity` left out. `hybrid` (the default): both lists fused per note by their scores,
 * each divided by its leg's best, the keyword leg weighing 0.8 (embedding/fusion.ts,
 * decision 037); its keyword leg reads a question as the keyword mode does (any content word,
 * passages holding every one first).
 */
import type Database from 'better-sqlite3';
import type { SearchHit, SearchPage, SearchQuery } from '../../kernel/index.js';
import { DEFAULT_MIN_SIMILARITY, FUSION_DEPTH, KEYWORD_WEIGHT, scoreFusion } from '../../toolkit/embedding/fusion.js';
import { liftFirstTier } from '../../toolkit/first-tier.js';
import type { NoteRow } from './index-db.js';
import type { QueryVectors } from '../../toolkit/embedding/query-vectors.js';
import {
  ftsExcluded,
  ftsExpressions,
  hasTerms,
  markableWords,
  parseQuery,
  semanticSentence,
  type KeywordExpressions,
  type ParsedQuery,
} from '../../toolkit/search/keyword-expressions.js';
import type { NoteRanking, VectorMatrix } from './vector-matrix.js';

export interface SearchTuning {
  /** Cosine under which a passage is taken as not about the query (semantic and hybrid modes). */
  minSimilarity?: number;
  /** How the hybrid mode's keyword leg joins the query's words: `all` (AND) or `any` (OR). */
  fusionKeywords?: 'all' | 'any';
}

export { DEFAULT_MIN_SIMILARITY };

export interface SearchState {
  db: Database.Database;
  notes: ReadonlyMap<string, NoteRow>;
  /** Each passage's note, by passage id. */
  chunkNotes: ReadonlyMap<number, string>;
  tuning: SearchTuning;
  /** Absent on a keyword-only index, which answers every query in `keyword` mode. */
  matrix?: VectorMatrix;
  queryVectors?: QueryVectors;
}

interface Ranked {
  id: string;
  score: number;
  /** The chunk a snippet is cut from. */
  chunkId?: number;
  /** The keyword leg: bm25 over the best of the note's tier (every word, or some), what the fusion weighs. */
  share?: number;
}

const SNIPPET_CHARS = 200;

/** A ranking whose entries are made only for the page asked for. */
interface Ranking {
  total: number;
  page(offset: number, limit: number): Ranked[];
}

export async function searchIndex(state: SearchState, query: SearchQuery): Promise<SearchPage> {
  const parsed = parseQuery(query.text);
  const excluded = excludedNotes(state.db, parsed);
  // Without a filter every indexed note is accepted: no per-note call on thousands of hits.
  const accept =
    query.type === undefined && excluded.size === 0
      ? undefined
      : (id: string) => {
          const note = state.notes.get(id);
          return note !== undefined && (query.type === undefined || note.type === query.type) && !excluded.has(id);
        };
  const offset = query.offset ?? 0;
  const ranking = hasTerms(parsed)
    ? await rank(state, query, parsed, accept, offset + query.limit)
    : listed(recent(state, accept));
  const marked = markableWords(parsed);
  const snippetMatch = marked.length ? marked.map((w) => `"${w}"`).join(' OR ') : undefined;
  const hits: SearchHit[] = ranking
    .page(offset, query.limit)
    .map((r) => ({ id: r.id, score: r.score, snippet: snippetOf(state.db, r, snippetMatch) }));
  return { hits, total: ranking.total };
}

type Accept = ((id: string) => boolean) | undefined;

const listed = (ranked: Ranked[]): Ranking => ({
  total: ranked.length,
  page: (offset, limit) => ranked.slice(offset, offset + limit),
});

async function rank(
  state: SearchState,
  query: SearchQuery,
  parsed: ParsedQuery,
  accept: Accept,
  end: number,
): Promise<Ranking> {
  const { matrix, queryVectors } = state;
  const mode = matrix && queryVectors ? (query.mode ?? 'hybrid') : 'keyword';
  const expressions = ftsExpressions(parsed);
  // `fusionKeywords: all` keeps hybrid's keyword leg to passages holding every word of a question.
  const strict = mode === 'hybrid' && state.tuning.fusionKeywords === 'all' && expressions?.every !== undefined;
  const keywordLeg = strict ? { match: expressions.every! } : expressions;
  // Asked first: the model embeds the query on its thread while this one runs the keyword leg.
  const vector = mode === 'keyword' ? undefined : queryVectors!.of(semanticSentence(query.text));
  vector?.catch(() => undefined); // awaited below; a failure must not go unhandled while FTS runs
  const depth = Math.max(FUSION_DEPTH, end);
  const leg =
    mode === 'semantic' ? { ranked: [] } : keywordRanking(state, keywordLeg, accept, mode === 'keyword' ? end : depth);
  const keyword = leg.ranked;
  if (vector === undefined) return { ...listed(keyword), total: leg.all?.size ?? keyword.length };
  let semantic = matrix!.rankNotes(await vector, state.tuning.minSimilarity ?? DEFAULT_MIN_SIMILARITY, accept);
  const semanticAt = (i: number): Ranked => ({
    id: semantic.ids[i]!,
    score: semantic.scores[i]!,
    chunkId: semantic.chunkIds[i]!,
  });
  if (mode === 'semantic') {
    return {
      total: semantic.ids.length,
      page: (offset, limit) =>
        Array.from({ length: Math.max(0, Math.min(limit, semantic.ids.length - offset)) }, (_, i) =>
          semanticAt(offset + i),
        ),
    };
  }
  // The keyword leg comes first, so a note it holds takes its chunk from there: that chunk holds
  // the query's words, and its snippet shows why the note matched.
  // A query that spells its syntax ("a phrase", -word, a AND b) finds what it spells: meaning
  // reorders those notes and adds none (decision 037); a question takes what meaning adds.
  const matched = parsed.question ? undefined : new Set(keyword.map((r) => r.id));
  if (matched) semantic = filterRanking(semantic, matched);
  const factors = termCoverage(state.db, keywordLeg?.terms, keyword.slice(0, depth));
  const fused = scoreFusion(
    [
      {
        ids: keyword.map((r) => r.id),
        scores: keyword.map((r) => r.share ?? r.score),
        weight: KEYWORD_WEIGHT,
        ...(factors ? { factors } : {}),
      },
      { ids: semantic.ids, scores: semantic.scores, weight: 1 - KEYWORD_WEIGHT },
    ],
    end,
    depth,
  );
  const ranked = fused.items.map((f) => ({
    id: f.id,
    score: f.score,
    chunkId: f.list === 0 ? keyword[f.rank]!.chunkId : semantic.chunkIds[f.rank]!,
  }));
  const total = leg.all ? unionSize(leg.all, semantic.ids) : fused.total;
  return { total, page: (offset, limit) => ranked.slice(offset, offset + limit) };
}

function unionSize(all: ReadonlySet<string>, more: readonly string[]): number {
  let size = all.size;
  for (const id of more) if (!all.has(id)) size += 1;
  return size;
}

/** The keyword leg: notes best first, at least `need` of them when that many match; `all` names every match when `ranked` holds only the first. */
interface KeywordLeg {
  ranked: Ranked[];
  all?: ReadonlySet<string>;
}

type PassageRow = { noteId: string; chunkId: number; score: number; tier: number };

/**
 * Notes by their best passage's bm25, passages holding every word of a question first (bm25
 * alone let one rare word outweigh the rest of the question). When notes holding every word are
 * `need` or more (a keyword page, or the fusion's depth), they alone are ranked, by the AND
 * (bm25 scores such a passage the same under the AND as under the OR; the page's scores are then
 * unlifted, comparable within it): a two-word question over 13,000 passages otherwise scored all
 * of them. The other matches are then only named, for the total.
 */
function keywordRanking(
  state: SearchState,
  expressions: KeywordExpressions | undefined,
  accept: Accept,
  need: number,
): KeywordLeg {
  if (expressions === undefined) return { ranked: [] };
  const { db } = state;
  const ranking = (sql: string, ...args: string[]) =>
    notesOf(statement<string[], PassageRow>(db, sql).all(...args), accept);
  if (expressions.every !== undefined) {
    const every = ranking(
      `SELECT c.note_id AS noteId, f.rowid AS chunkId, f.score AS score, 1 AS tier
         FROM (SELECT rowid, bm25(chunks_fts, 10.0, 3.0, 1.0) AS score FROM chunks_fts WHERE chunks_fts MATCH ?) f
         JOIN chunks c ON c.id = f.rowid ORDER BY f.score, c.note_id`,
      expressions.every,
    );
    if (every.length >= need) return { ranked: every, all: matchedNotes(state, expressions.match, accept) };
  }
  const ranked =
    expressions.every === undefined
      ? ranking(
          `SELECT c.note_id AS noteId, f.rowid AS chunkId, f.score AS score, 0 AS tier
             FROM (SELECT rowid, bm25(chunks_fts, 10.0, 3.0, 1.0) AS score FROM chunks_fts WHERE chunks_fts MATCH ?) f
             JOIN chunks c ON c.id = f.rowid ORDER BY f.score, c.note_id`,
          expressions.match,
        )
      : ranking(
          `SELECT c.note_id AS noteId, f.rowid AS chunkId, f.score AS score, f.tier AS tier
             FROM (SELECT rowid, bm25(chunks_fts, 10.0, 3.0, 1.0) AS score,
                     rowid IN (SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ?) AS tier
                   FROM chunks_fts WHERE chunks_fts MATCH ?) f
             JOIN chunks c ON c.id = f.rowid ORDER BY f.tier DESC, f.score, c.note_id`,
          expressions.every,
          expressions.match,
        );
  return { ranked };
}

/**
 * Each accepted note once, at its best passage; notes whose passage holds every word lifted above
 * the rest. Each note's share for the fusion comes from its bm25 over the best of its own tier
 * (decision 037), so the leg weighs the same whether its partial matches were scored or not
 * (keywordRanking).
 */
function notesOf(rows: readonly PassageRow[], accept: Accept): Ranked[] {
  const seen = new Set<string>();
  const ranked: Array<Ranked & { tier: number }> = [];
  const best = [0, 0];
  for (const row of rows) {
    if (seen.has(row.noteId) || (accept && !accept(row.noteId))) continue;
    seen.add(row.noteId);
    // bm25 is lower-is-better; SearchHit.score is higher-is-better.
    ranked.push({ id: row.noteId, score: -row.score, chunkId: row.chunkId, tier: row.tier });
    best[row.tier] = Math.max(best[row.tier]!, -row.score);
  }
  // Notes holding every word share the upper half, the rest the lower, each by bm25 over its
  // tier's best; with no note holding every word, the rest take the whole range.
  const split = best[1]! > 0;
  for (const r of ranked) {
    const within = best[r.tier]! > 0 ? r.score / best[r.tier]! : 0;
    r.share = !split ? within : r.tier ? 0.5 + 0.5 * within : 0.5 * within;
  }
  return liftFirstTier(ranked, (r) => r.tier === 1).map(({ tier: _tier, ...r }) => r);
}

/** Every accepted note a match expression finds, unranked: the passages from FTS5 alone, their notes from memory (a join was 8 ms for 7,000 passages). */
function matchedNotes(state: SearchState, match: string, accept: Accept): Set<string> {
  const ids = new Set<string>();
  for (const passage of statement<[string], number>(state.db, 'SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ?')
    .pluck()
    .all(match)) {
    const id = state.chunkNotes.get(passage);
    if (id !== undefined && (!accept || accept(id))) ids.add(id);
  }
  return ids;
}

/** The ranking's entries whose note is in `keep`, in order. */
function filterRanking(ranking: NoteRanking, keep: ReadonlySet<string>): NoteRanking {
  const at = ranking.ids.flatMap((id, i) => (keep.has(id) ? [i] : []));
  return {
    ids: at.map((i) => ranking.ids[i]!),
    scores: Float32Array.from(at, (i) => ranking.scores[i]!),
    chunkIds: Int32Array.from(at, (i) => ranking.chunkIds[i]!),
  };
}

/**
 * For each ranked note, the share of a question's terms its passage holds (one lookup per term
 * among those passages), or undefined for a query that is not a question of several words.
 */
function termCoverage(
  db: Database.Database,
  terms: readonly string[] | undefined,
  ranked: readonly Ranked[],
): number[] | undefined {
  if (!terms?.length || !ranked.length) return undefined;
  const chunkIds = JSON.stringify(ranked.map((r) => r.chunkId));
  const held = new Map<number, number>();
  const holding = statement<[string, string], { id: number }>(
    db,
    'SELECT rowid AS id FROM chunks_fts WHERE chunks_fts MATCH ? AND rowid IN (SELECT value FROM json_each(?))',
  );
  for (const term of terms) for (const { id } of holding.all(term, chunkIds)) held.set(id, (held.get(id) ?? 0) + 1);
  return ranked.map((r) => (held.get(r.chunkId!) ?? 0) / terms.length);
}

/** Every accepted note, most recently updated first (an empty text lists notes). */
function recent(state: SearchState, accept: Accept): Ranked[] {
  return [...state.notes.values()]
    .filter((note) => !accept || accept(note.id))
    .sort((a, b) => (a.updated < b.updated ? 1 : a.updated > b.updated ? -1 : a.id < b.id ? -1 : 1))
    .map((note) => ({ id: note.id, score: 0 }));
}

function excludedNotes(db: Database.Database, parsed: ParsedQuery): Set<string> {
  const match = ftsExcluded(parsed);
  if (match === undefined) return new Set();
  const rows = statement<[string], { noteId: string }>(
    db,
    'SELECT DISTINCT c.note_id AS noteId FROM chunks_fts JOIN chunks c ON c.id = chunks_fts.rowid WHERE chunks_fts MATCH ?',
  ).all(match);
  return new Set(rows.map((r) => r.noteId));
}

/** FTS5's own snippet of the chunk (query words in `<mark>`), else the start of the chunk. */
function snippetOf(db: Database.Database, ranked: Ranked, match: string | undefined): string {
  const chunkId =
    ranked.chunkId ??
    statement<[string], { id: number }>(db, 'SELECT id FROM chunks WHERE note_id = ? ORDER BY seq LIMIT 1').get(
      ranked.id,
    )?.id;
  if (chunkId === undefined) return '';
  if (match !== undefined) {
    // The rowid cast: better-sqlite3 binds a JS number as a REAL, and FTS5 ignores a REAL rowid
    // bound next to MATCH, answering the first matching passage of any note instead.
    const marked = statement<[string, number], { text: string; heading: string }>(
      db,
      `SELECT snippet(chunks_fts, 2, '<mark>', '</mark>', '…', 32) AS text, snippet(chunks_fts, 1, '<mark>', '</mark>', '…', 12) AS heading
         FROM chunks_fts WHERE chunks_fts MATCH ? AND rowid = CAST(? AS INTEGER)`,
    ).get(match, chunkId);
    if (marked?.text.includes('<mark>')) return marked.text;
    if (marked?.heading.includes('<mark>')) return marked.heading;
  }
  const chunk = statement<[number], { heading: string; text: string }>(
    db,
    'SELECT heading, text FROM chunks WHERE id = ?',
  ).get(chunkId);
  const text = chunk?.text || chunk?.heading || '';
  return text.length > SNIPPET_CHARS ? `${text.slice(0, SNIPPET_CHARS)}…` : text;
}

const prepared = new WeakMap<Database.Database, Map<string, Database.Statement>>();

/** Compiled once per connection: compiling a statement cost more per search than running some. */
function statement<P extends unknown[], R>(db: Database.Database, sql: string): Database.Statement<P, R> {
  let byText = prepared.get(db);
  if (!byText) prepared.set(db, (byText = new Map()));
  let compiled = byText.get(sql);
  if (!compiled) byText.set(sql, (compiled = db.prepare(sql)));
  return compiled as unknown as Database.Statement<P, R>;
}
