/**
 * One SearchQuery → two statements over the index (a page and its total). With words to match
 * the FTS table leads, ranked by bm25 with the title weighted ten times the content; without,
 * `notes` leads in the requested order (most recently updated first by default).
 */
import type { SearchHit, SearchPage, SearchQuery } from '../../kernel/backend.js';
import { ValidationError } from '../../kernel/errors.js';
import { combine, contentPhrase, parseAgentQuery, titleKeyOfQuery, type TitleOfQuery } from './fts-query.js';
import { filterTerms, orderTerms, QueryParams, type PlannedSearch } from './search-filters.js';
import { broadPage, isBroad } from './search-broad.js';
import { questionPage } from './search-question.js';
import { narrowPrefixes } from './prefix-terms.js';
import { countOf, HIGHLIGHTS, MARK_COLUMNS, SCORE, scoreSmallSet, SMALL_SET, type Scored } from './search-rank.js';
import { HIT_COLUMNS, hitRowsByRowid, LEAD, SNIPPET, type StatementCache, toHit, type HitRow } from './search-rows.js';

/** Everything but the ranking: shared by word search and the regex scan. */
export function planSearch(query: SearchQuery, options: { words: boolean }): PlannedSearch {
  const params = new QueryParams();
  const terms = filterTerms(query, params);
  const fts = options.words ? parseAgentQuery(query.text) : {};
  const containsText = query.contentContains?.trim() ?? '';
  const contains = containsText ? contentPhrase(containsText) : undefined;
  // Text without a single letter or digit ("!!!") cannot be a phrase: fall back to a plain substring.
  if (containsText && !contains) terms.push(`instr(lower(n.content), lower(${params.add(containsText)})) > 0`);
  const match = combine([fts.positive, contains], fts.negative);
  if (!match && fts.negative) {
    terms.push(`n.rowid NOT IN (SELECT rowid FROM notes_fts WHERE notes_fts MATCH ${params.add(fts.negative)})`);
  }
  // A note titled by the query (or whose title continues it) is what its author looks for:
  // ranked first, by an index seek rather than by scoring every note that holds those words.
  const titled = options.words && !contains ? titleKeyOfQuery(query.text) : undefined;
  const wordsOnly = fts.negative === undefined && !containsText && terms.length === 0;
  const every =
    fts.every !== undefined && fts.terms !== undefined && !contains
      ? { every: fts.every, questionTerms: fts.terms }
      : {};
  return {
    terms,
    params,
    ...(match ? { match } : {}),
    hasText: fts.positive !== undefined,
    ...(titled ? { titleKey: titled } : {}),
    wordsOnly,
    ...every,
  };
}

export function searchWords(cache: StatementCache, query: SearchQuery): SearchPage {
  const { limit, offset } = pageOf(query);
  const plan = planSearch(query, { words: true });
  if (plan.match !== undefined) plan.match = narrowPrefixes(cache, plan.match);
  const ranked = plan.match !== undefined;
  const bySortedScore =
    !query.sort?.length ||
    (query.sort.length === 1 && query.sort[0]?.field === 'score' && query.sort[0].order === 'desc');
  const order = orderTerms(query.sort, {
    ranked,
    byScore: plan.hasText,
    params: plan.params,
    hasMetadataKey: (key) => cache.get('SELECT 1 FROM note_metadata WHERE key = ? LIMIT 1').get(key) !== undefined,
  });
  if (!ranked) return filteredPage(cache, plan, order, limit, offset, (query.metadata?.length ?? 0) > 0);
  if (plan.hasText && bySortedScore)
    return plan.titleKey
      ? titleFirstPage(cache, plan, plan.titleKey, limit, offset)
      : rankedPage(cache, plan, limit, offset);
  return sortedMatches(cache, plan, order, limit, offset);
}

/** Words (or content_contains) matched, then sorted by something other than relevance. */
function sortedMatches(
  cache: StatementCache,
  plan: PlannedSearch,
  order: string,
  limit: number,
  offset: number,
): SearchPage {
  const { params, terms } = plan;
  const where = [`f.notes_fts MATCH ${params.add(plan.match)}`, ...terms].join(' AND ');
  const rows = cache
    .get(
      `SELECT ${HIT_COLUMNS}, ${SCORE}, ${SNIPPET}, ${LEAD} FROM notes_fts f JOIN notes n ON n.rowid = f.rowid
      WHERE ${where} ORDER BY ${order} LIMIT @limit OFFSET @offset`,
    )
    .all({ ...params.values, limit, offset }) as HitRow[];
  const count = `SELECT count(*) AS total FROM notes_fts f JOIN notes n ON n.rowid = f.rowid WHERE ${where}`;
  return {
    hits: rows.map(toHit),
    total: totalOf(rows.length, limit, offset, () => countOf(cache, count, params.values)),
  };
}

/**
 * Ranked by relevance (the common case). The count comes first: a small set is scored from
 * its own rows (search-rank.ts); a large one by bm25() in the FTS table alone, reading `notes`
 * rows for the page only (joining first fetched every match's row before sorting: 49 ms
 * instead of 19 ms for a word in 7,600 of 10,000 notes).
 */
function rankedPage(cache: StatementCache, plan: PlannedSearch, limit: number, offset: number): SearchPage {
  const ranked = rankedRowids(cache, plan, limit, offset);
  if ('hits' in ranked) return ranked;
  return { hits: hitsOf(cache, plan, ranked.scored), total: ranked.total };
}

/** The page's rowids and scores (and the total), or a whole page when search-broad ranks the query. */
function rankedRowids(
  cache: StatementCache,
  plan: PlannedSearch,
  limit: number,
  offset: number,
): SearchPage | { scored: Scored[]; total: number } {
  const { params, terms } = plan;
  const match = params.add(plan.match);
  // Checked per match: cheap for the few matches of a typical query, where listing every note
  // of a type first would cost more than the search.
  const filter = terms.length
    ? ` AND EXISTS (SELECT 1 FROM notes n WHERE n.rowid = f.rowid AND ${terms.join(' AND ')})`
    : '';
  const where = `f.notes_fts MATCH ${match}${filter}`;
  const total = countOf(cache, `SELECT count(*) AS total FROM notes_fts f WHERE ${where}`, params.values);
  if (total === 0 || offset >= total) return { scored: [], total };
  if (plan.every !== undefined) return { scored: questionPage(cache, plan, filter, total, limit, offset), total };
  if (total > SMALL_SET && plan.wordsOnly && plan.match !== undefined && isBroad(cache, total))
    return broadPage(cache, plan.match, total, limit, offset);
  if (total <= SMALL_SET) {
    const scored = scoreSmallSet(
      cache.get(`SELECT ${MARK_COLUMNS} FROM (SELECT f.rowid, ${HIGHLIGHTS} FROM notes_fts f WHERE ${where}) f`),
      params.values,
    );
    return { scored: scored.slice(offset, offset + limit), total };
  }
  // Rowids and scores only: with snippet() among the sorted columns SQLite built one for every
  // match that entered the top-N on the way (~70 for a page of 10 out of 9,000 matches), 2–3 ms
  // of a 6–9 ms query. The page's rows and snippets are read after, by rowid.
  const scored = cache
    .get(
      `SELECT f.rowid AS rid, ${SCORE} FROM notes_fts f WHERE ${where} ORDER BY score DESC, f.rowid LIMIT @limit OFFSET @offset`,
    )
    .all({ ...params.values, limit, offset }) as Scored[];
  return { scored, total };
}

/** Hits for scored rowids, in their order (rows read once, with snippets). */
function hitsOf(cache: StatementCache, plan: PlannedSearch, scored: readonly Scored[]): SearchHit[] {
  const byRid = hitRowsByRowid(
    cache,
    plan.match as string,
    scored.map((s) => s.rid),
  );
  return scored.flatMap((s) => {
    const row = byRid.get(s.rid);
    return row ? [{ ...toHit(row), score: s.score }] : [];
  });
}

/**
 * Notes titled exactly as the query, then those whose title continues it ("Project Quasar 13" →
 * "Project Quasar 13 b"), then every other match by relevance. bm25 weighs a title ten times
 * the body but also each word's rarity, so on a vault of near-identical titles ("Project Quasar
 * 16" holding "13" in its body) it put the named note anywhere in the first page. A page filled
 * by titled notes needs no ranking at all, only the count.
 */
function titleFirstPage(
  cache: StatementCache,
  plan: PlannedSearch,
  key: TitleOfQuery,
  limit: number,
  offset: number,
): SearchPage {
  const want = offset + limit;
  const titled = titledRowids(cache, plan, key, want);
  if (!titled.length) return rankedPage(cache, plan, limit, offset);
  const { params } = plan;
  if (titled.length >= want) {
    const match = params.add(plan.match);
    const filter = plan.terms.length
      ? ` AND EXISTS (SELECT 1 FROM notes n WHERE n.rowid = f.rowid AND ${plan.terms.join(' AND ')})`
      : '';
    const total = countOf(
      cache,
      `SELECT count(*) AS total FROM notes_fts f WHERE f.notes_fts MATCH ${match}${filter}`,
      params.values,
    );
    return { hits: titledFirst(cache, plan, titled, 0, [], offset, want), total };
  }
  const rest = rankedRowids(cache, plan, want, 0);
  if ('hits' in rest) {
    const hits = titledFirst(cache, plan, titled, rest.hits[0]?.score ?? 0, [], 0, want);
    const seen = new Set(hits.map((h) => h.id));
    return { hits: [...hits, ...rest.hits.filter((h) => !seen.has(h.id))].slice(offset, want), total: rest.total };
  }
  return {
    hits: titledFirst(cache, plan, titled, rest.scored[0]?.score ?? 0, rest.scored, offset, want),
    total: rest.total,
  };
}

/**
 * Titled rowids (scored above every ranked score `best`, in title order: scores compare within
 * one query only), then the ranked ones not among them, `[offset, want)` of that list. Every
 * candidate's row is read in one statement: a titled note that does not match the expression
 * has none and takes no place.
 */
function titledFirst(
  cache: StatementCache,
  plan: PlannedSearch,
  titled: number[],
  best: number,
  ranked: readonly Scored[],
  offset: number,
  want: number,
): SearchHit[] {
  const heads = titled.slice(0, want);
  const byRid = hitRowsByRowid(cache, plan.match as string, [...new Set([...heads, ...ranked.map((s) => s.rid)])]);
  const first: Scored[] = heads.flatMap((rid, i) =>
    byRid.has(rid) ? [{ rid, score: best + 1 + titled.length - i }] : [],
  );
  const seen = new Set(first.map((s) => s.rid));
  return [...first, ...ranked.filter((s) => !seen.has(s.rid))].slice(offset, want).flatMap((s) => {
    const row = byRid.get(s.rid);
    return row ? [{ ...toHit(row), score: s.score }] : [];
  });
}

/**
 * Rowids of notes titled `key` (smallest rowid first), then of titles continuing it (in key
 * order); for a prefix (`project qua`), of titles starting with it, in key order (an exact one first).
 */
function titledRowids(cache: StatementCache, plan: PlannedSearch, title: TitleOfQuery, want: number): number[] {
  const { key } = title;
  const filter = plan.terms.length
    ? ` AND EXISTS (SELECT 1 FROM notes n WHERE n.rowid = k.note_rowid AND ${plan.terms.join(' AND ')})`
    : '';
  if (title.prefix) {
    return cache
      .get(
        `SELECT k.note_rowid FROM nk_title_keys k WHERE k.key >= @lo AND k.key < @hi${filter} ORDER BY k.key, k.note_rowid LIMIT @want`,
      )
      .pluck()
      .all({ ...plan.params.values, lo: key, hi: `${key}\u{10ffff}`, want }) as number[];
  }
  const values = { ...plan.params.values, tk: key, lo: `${key} `, hi: `${key} \u{10ffff}`, want };
  const exact = cache
    .get(`SELECT k.note_rowid FROM nk_title_keys k WHERE k.key = @tk${filter} ORDER BY k.note_rowid LIMIT @want`)
    .pluck()
    .all(values) as number[];
  if (exact.length >= want) return exact;
  const longer = cache
    .get(
      `SELECT k.note_rowid FROM nk_title_keys k WHERE k.key > @lo AND k.key < @hi${filter} ORDER BY k.key, k.note_rowid LIMIT @want`,
    )
    .pluck()
    .all(values) as number[];
  return [...exact, ...longer].slice(0, want);
}

/**
 * No words: filters and a sort over `notes`. With metadata predicates every candidate is checked
 * and sorted anyway, so the inner query counts them on the way (no second pass for the total)
 * and orders rowids only; the page's rows are read after. Without, an index serves the order
 * and stops after one page, and a separate count is cheap; counting in the window would force
 * the whole table through the sort (0.3 ms → 14 ms for "most recent" on 10,000 notes).
 */
function filteredPage(
  cache: StatementCache,
  plan: PlannedSearch,
  order: string,
  limit: number,
  offset: number,
  windowed: boolean,
): SearchPage {
  const where = plan.terms.length ? `WHERE ${plan.terms.join(' AND ')}` : '';
  const count = `SELECT count(*) AS total FROM notes n ${where}`;
  const params = { ...plan.params.values, limit, offset };
  if (!windowed) {
    const rows = cache
      .get(
        `SELECT ${HIT_COLUMNS}, 0 AS score, NULL AS snippet, ${LEAD} FROM notes n ${where} ORDER BY ${order} LIMIT @limit OFFSET @offset`,
      )
      .all(params) as HitRow[];
    return {
      hits: rows.map(toHit),
      total: totalOf(rows.length, limit, offset, () => countOf(cache, count, plan.params.values)),
    };
  }
  const rows = cache
    .get(
      `SELECT ${HIT_COLUMNS}, 0 AS score, NULL AS snippet, ${LEAD}, p.total AS total FROM (
        SELECT n.rowid AS rid, count(*) OVER () AS total FROM notes n ${where} ORDER BY ${order} LIMIT @limit OFFSET @offset
      ) p JOIN notes n ON n.rowid = p.rid ORDER BY ${order}`,
    )
    .all(params) as Array<HitRow & { total: number }>;
  return { hits: rows.map(toHit), total: rows[0]?.total ?? countOf(cache, count, plan.params.values) };
}

/** A short page needs no count: it already holds the last match. */
function totalOf(found: number, limit: number, offset: number, count: () => number): number {
  return found < limit && (offset === 0 || found > 0) ? offset + found : count();
}

export function pageOf(query: Pick<SearchQuery, 'limit' | 'offset'>): { limit: number; offset: number } {
  const limit = query.limit;
  const offset = query.offset ?? 0;
  if (!Number.isInteger(limit) || limit < 0)
    throw new ValidationError('limit: give a whole number of results, 0 or more.', { field: 'limit' });
  if (!Number.isInteger(offset) || offset < 0)
    throw new ValidationError('offset: give a whole number, 0 or more.', { field: 'offset' });
  return { limit, offset };
}
