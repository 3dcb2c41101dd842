/**
 * A question's page (decision 037): notes holding any of its words, those holding every word
 * first, each tier by bm25. Two things keep it cheap at 10,000 notes:
 *  - A word in at least half the notes gets bm25's clamped IDF (1e-6): it can reorder nothing,
 *    yet scoring it read its whole doclist for every match. Such words still decide which notes
 *    hold every word, and still match; they are left out of the expression that ranks. Notes
 *    holding only such words come after every ranked one, most recently updated first (their
 *    scores would all be ~0: a tie, broken as search-broad.ts breaks it).
 *  - A page that notes holding every word fill is ranked among them alone, by the AND of every
 *    word: bm25 scores such a note the same there as in the tiered order (but for the left-out
 *    words' 1e-6 share), so pages tile.
 * Scores: a note holding every word is lifted above the page's others, so scores keep the order.
 */
import type { PlannedSearch } from './search-filters.js';
import { countOf, SCORE, type Scored } from './search-rank.js';
import type { StatementCache } from './search-rows.js';
import { VOCABULARY } from './prefix-terms.js';
import { liftFirstTier } from '../../toolkit/first-tier.js';

export function questionPage(
  cache: StatementCache,
  plan: PlannedSearch,
  filter: string,
  total: number,
  limit: number,
  offset: number,
): Scored[] {
  const { params } = plan;
  const terms = plan.questionTerms ?? [];
  const ranking = rankingTerms(cache, terms);
  const rankMatch = params.add(ranking.join(' OR '));
  const every = params.add(plan.every);
  const values = { ...params.values, limit, offset };
  const holdingEvery = `f.rowid IN (SELECT rowid FROM notes_fts WHERE notes_fts MATCH ${every})`;
  const ranked = `f.notes_fts MATCH ${rankMatch}${filter}`;
  const everyMatch = `f.notes_fts MATCH ${every}${filter}`;
  if (
    countOf(cache, `SELECT count(*) AS total FROM notes_fts f WHERE ${everyMatch}`, params.values) >=
    offset + limit
  ) {
    // Scored by the AND: the same phrases as the ranking expression, and the words left out of
    // that add bm25's clamped 1e-6 IDF only. (Asking the ranking expression with the AND's rows
    // as an IN list made FTS5 evaluate it once per row: seconds.)
    return cache
      .get(
        `SELECT f.rowid AS rid, ${SCORE} FROM notes_fts f WHERE ${everyMatch} ORDER BY score DESC, f.rowid LIMIT @limit OFFSET @offset`,
      )
      .all(values) as Scored[];
  }
  const rows = cache
    .get(
      `SELECT f.rowid AS rid, ${SCORE}, ${holdingEvery} AS tier FROM notes_fts f WHERE ${ranked} ORDER BY tier DESC, score DESC, f.rowid LIMIT @limit OFFSET @offset`,
    )
    .all(values) as Array<Scored & { tier: number }>;
  const page: Scored[] = liftFirstTier(rows, (r) => r.tier === 1).map(({ rid, score }) => ({ rid, score }));
  if (page.length === limit || ranking.length === terms.length) return page;
  // Past the ranked notes: those holding only the words half the vault holds.
  const rankedCount = countOf(cache, `SELECT count(*) AS total FROM notes_fts f WHERE ${ranked}`, params.values);
  const from = Math.max(0, offset - rankedCount);
  const tail = cache
    .get(
      `SELECT n.rowid AS rid FROM notes n WHERE n.rowid IN (SELECT f.rowid FROM notes_fts f WHERE f.notes_fts MATCH ${params.add(plan.match)}${filter})
       AND n.rowid NOT IN (SELECT f.rowid FROM notes_fts f WHERE f.notes_fts MATCH ${rankMatch}) ORDER BY n.updated DESC, n.rowid LIMIT @limit OFFSET @from`,
    )
    .pluck()
    .all({ ...params.values, limit: limit - page.length, from }) as number[];
  return [...page, ...tail.map((rid, i) => ({ rid, score: -(from + i + 1) / (total + 1) }))];
}

/** The terms that can reorder notes: each single word held by fewer than half the notes, and every phrase; all of them when none is. */
function rankingTerms(cache: StatementCache, terms: readonly string[]): string[] {
  cache.get(VOCABULARY).run();
  const notes = (cache.get('SELECT count(*) AS n FROM notes').get() as { n: number }).n;
  const informative = terms.filter((term) => {
    const word = /^"([^" ]+)"$/.exec(term)?.[1];
    if (word === undefined) return true;
    const held =
      (cache.get('SELECT doc FROM temp.nk_fts_terms WHERE term = ?').pluck().get(word) as number | undefined) ?? 0;
    return held * 2 < notes;
  });
  return informative.length ? informative : [...terms];
}
