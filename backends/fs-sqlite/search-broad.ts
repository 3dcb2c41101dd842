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
import { HIT_COLUMNS, LEAD, toHit, type HitRow, type StatementCache } from './search-rows.js';

const SNIPPET = "snippet(notes_fts, 2, '<mark>', '</mark>', '…', 32) AS snippet";
const TITLE_SCORE = '-bm25(notes_fts, 0.0, 10.0, 1.0, 0.0)';

/** Whether bm25 gives every phrase of a query with `total` matches the clamped IDF. */
export function isBroad(cache: StatementCache, total: number): boolean {
  const notes = (cache.get('SELECT count(*) AS n FROM notes').get() as { n: number }).n;
  return total * 2 >= notes;
}

/** `match`: the query's positive expression (no NOT, no filters: the caller checks). */
export function broadPage(cache: StatementCache, match: string, total: number, limit: number, offset: number): SearchPage {
  const titleMatch = `{title} : (${match})`;
  const titled = (cache.get('SELECT count(*) AS n FROM notes_fts WHERE notes_fts MATCH @tm').get({ tm: titleMatch }) as { n: number }).n;
  const picked: Array<{ rid: number; score: number }> = [];
  if (offset < titled) {
    const rows = cache
      .get(`SELECT rowid AS rid, ${TITLE_SCORE} AS s FROM notes_fts WHERE notes_fts MATCH @tm ORDER BY s DESC, rowid LIMIT @limit OFFSET @offset`)
      .all({ tm: titleMatch, limit, offset }) as Array<{ rid: number; s: number }>;
    // Above every score of the second tier, which stays below 1.
    for (const r of rows) picked.push({ rid: r.rid, score: 1 + r.s });
  }
  const rest = limit - picked.length;
  if (rest > 0 && titled < total) {
    const from = Math.max(0, offset - titled);
    const rids = cache
      .get(
        `SELECT n.rowid FROM notes n
        WHERE +n.rowid IN (SELECT rowid FROM notes_fts WHERE notes_fts MATCH @m)
          AND +n.rowid NOT IN (SELECT rowid FROM notes_fts WHERE notes_fts MATCH @tm)
        ORDER BY n.updated DESC, n.rowid LIMIT @limit OFFSET @offset`,
      )
      .pluck()
      .all({ m: match, tm: titleMatch, limit: rest, offset: from }) as number[];
    rids.forEach((rid, i) => picked.push({ rid, score: (total - from - i) / (total + 1) }));
  }
  return { hits: hitsOf(cache, match, picked), total };
}

function hitsOf(cache: StatementCache, match: string, picked: ReadonlyArray<{ rid: number; score: number }>): SearchHit[] {
  if (!picked.length) return [];
  const rows = cache
    .get(
      `SELECT ${HIT_COLUMNS}, f.rowid AS rid, ${SNIPPET}, ${LEAD} FROM notes_fts f JOIN notes n ON n.rowid = f.rowid
      WHERE f.notes_fts MATCH @m AND f.rowid IN (SELECT value FROM json_each(@rids))`,
    )
    .all({ m: match, rids: JSON.stringify(picked.map((p) => p.rid)) }) as Array<HitRow & { rid: number }>;
  const byRid = new Map(rows.map((r) => [r.rid, r]));
  return picked.flatMap((p) => {
    const row = byRid.get(p.rid);
    return row ? [{ ...toHit(row), score: p.score }] : [];
  });
}
