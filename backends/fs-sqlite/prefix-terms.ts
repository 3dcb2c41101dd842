/**
 * A prefix only one indexed word starts with (`quas*` when the vault holds `quasar` and no other
 * `quas…`) is that word: FTS5 matches the same notes, finds the same instances, so bm25, the IDF
 * of the phrase, snippet() and highlight() all come out the same. Asked as a prefix, FTS5 merges
 * the doclists of the range on every evaluation: `quas*` in 9,450 of 10,000 notes took twice the
 * count of `quasar` and seven times its hit rows (one evaluation per rowid, decision 033). The
 * vocabulary is read through an fts5vocab table on the connection's temp schema (no migration):
 * 0.1–0.45 ms a prefix, scanning the doclist of at most two words.
 */
import type { StatementCache } from './search-rows.js';

/** A prefix phrase as fts-query.ts emits it: `"tok tok"*`, bodies of letters, digits and spaces. */
const PREFIX_PHRASE = /"([^"]*)"\*/g;

/** unicode61 folds these to lower case exactly as JavaScript does; other letters keep their prefix. */
const ASCII_TOKEN = /^[A-Za-z0-9]+$/;

export const VOCABULARY = 'CREATE VIRTUAL TABLE IF NOT EXISTS temp.nk_fts_terms USING fts5vocab(main, notes_fts, row)';

/** `match` with each prefix phrase whose last word has one completion in the index written as that word. */
export function narrowPrefixes(cache: StatementCache, match: string): string {
  if (!match.includes('*')) return match;
  return match.replace(PREFIX_PHRASE, (whole, body: string) => {
    const cut = body.lastIndexOf(' ') + 1;
    const last = body.slice(cut);
    if (!ASCII_TOKEN.test(last)) return whole;
    const only = onlyCompletion(cache, last.toLowerCase());
    return only === undefined ? whole : `"${body.slice(0, cut)}${only}"`;
  });
}

function onlyCompletion(cache: StatementCache, prefix: string): string | undefined {
  let terms: string[];
  try {
    cache.get(VOCABULARY).run();
    terms = cache
      .get('SELECT term FROM temp.nk_fts_terms WHERE term >= @lo AND term < @hi ORDER BY term LIMIT 2')
      .pluck()
      .all({ lo: prefix, hi: `${prefix}\u{10ffff}` }) as string[];
  } catch {
    // Only a shortcut: the prefix as asked gives the same answer (a damaged index is reported
    // by the connection's watch, and the search itself fails on it).
    return undefined;
  }
  return terms.length === 1 && terms[0]?.startsWith(prefix) ? terms[0] : undefined;
}
