/**
 * Words found in most of the vault ("budget" in 9,300 of 10,000 notes). FTS5's bm25 gives a
 * phrase in at least half the notes an IDF of 1e-6 (a negative IDF clamped), so for a query
 * whose every match set is that large its score says only how often the words occur, and
 * sorting every match by it cost 6–20 ms at 10,000 notes: the whole tail of the keyword set.
 * Such a query is ranked instead by what still tells notes apart:
 *  1. notes holding the words in their title, by bm25 over the title column (its IDF counts
 *     titles, a few hundred, so it discriminates; bm25 itself weighs a title ten times);
 *  2. then every other match, most recently updated first (an index walk that stops at the page).
 * One total order, so pages never overlap; both tiers cost about what the count does (decision 026).
 */
import type { SearchHit, SearchPage } from '../../kernel/backend.js';
import { hitRowsByRowid, toHit, type StatementCache } from './search-rows.js';

const TITLE_SCORE = '-bm25(notes_fts, 0.0, 10.0, 1.0, 0.0)';

/** Pages ending within this many notes of the newest may be found by asking FTS5 about each note in turn. */
const WALK_DEPTH = 100;

/** Whether bm25 gives every phrase of a query with `total` matches the clamped IDF. */
export function isBroad(cache: StatementCache, total: number): boolean {
  const notes = (cache.get('SELECT count(*) AS n FROM notes').get() as { n: number }).n;
  return total * 2 >= notes;
}

/** `match`: the query's positive expression (no NOT, no filters: the caller checks). */
export function broadPage(
  cache: StatementCache,
  match: string,
  total: number,
  limit: number,
  offset: number,
): SearchPage {
  // The title tier from its top: when it does not fill the page, these rows are all of it, and
  // the second tier leaves them out by rowid (no second pass over the title matches).
  const titled = cache
    .get(
      `SELECT rowid AS rid, ${TITLE_SCORE} AS s FROM notes_fts WHERE notes_fts MATCH @tm ORDER BY s DESC, rowid LIMIT @want`,
    )
    .all({ tm: `{title} : (${match})`, want: offset + limit }) as Array<{ rid: number; s: number }>;
  // Above every score of the second tier, which stays below 1.
  const picked = titled.slice(offset).map((r) => ({ rid: r.rid, score: 1 + r.s }));
  const rest = limit - picked.length;
  if (rest > 0 && titled.length < total) {
    const from = Math.max(0, offset - titled.length);
    const rids = recentMatches(
      cache,
      match,
      titled.map((r) => r.rid),
      rest,
      from,
    );
    rids.forEach((rid, i) => picked.push({ rid, score: (total - from - i) / (total + 1) }));
  }
  return { hits: hitsOf(cache, match, picked), total };
}

/**
 * Rowids of the notes matching `match` but not in `skip`, most recently updated first. Walking
 * `idx_notes_updated` and asking FTS5 about each note stops at the page (0.1 ms for "budget"
 * instead of 2 ms): at least half the notes match here, so the walk meets about two notes per
 * hit. Each question evaluates the match afresh, so a prefix term (merged from every word it
 * covers each time) or a page deep in the list collect the matches once instead.
 */
function recentMatches(cache: StatementCache, match: string, skip: number[], limit: number, offset: number): number[] {
  const walk = !match.includes('*') && offset + limit <= WALK_DEPTH;
  const matching = walk
    ? 'EXISTS (SELECT 1 FROM notes_fts f WHERE f.notes_fts MATCH @m AND f.rowid = n.rowid)'
    : '+n.rowid IN (SELECT rowid FROM notes_fts WHERE notes_fts MATCH @m)';
  return cache
    .get(
      `SELECT n.rowid FROM notes n WHERE ${matching} AND +n.rowid NOT IN (SELECT value FROM json_each(@skip))
      ORDER BY n.updated DESC, n.rowid LIMIT @limit OFFSET @offset`,
    )
    .pluck()
    .all({ m: match, skip: JSON.stringify(skip), limit, offset }) as number[];
}

function hitsOf(
  cache: StatementCache,
  match: string,
  picked: ReadonlyArray<{ rid: number; score: number }>,
): SearchHit[] {
  const byRid = hitRowsByRowid(
    cache,
    match,
    picked.map((p) => p.rid),
  );
  return picked.flatMap((p) => {
    const row = byRid.get(p.rid);
    return row ? [{ ...toHit(row), score: p.score }] : [];
  });
}
