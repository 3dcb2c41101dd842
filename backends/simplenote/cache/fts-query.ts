/**
 * The parsed query (toolkit/search/query.ts) → an FTS4 MATCH expression (enhanced query syntax:
 * AND by juxtaposition, OR, NOT, parentheses). Words are the parser's letters and digits, folded
 * and stemmed as the index holds them (`Łódź` → `lodz`, `running` → `run`), so nothing a user types becomes an operator or a
 * syntax error. A question matches any of its content words; `every` says the rows holding all
 * of them rank first (read from matchinfo, where each term is one phrase).
 */
import { parseQuery, questionTerms, requiredGroups, type QueryTerm } from '../../../toolkit/search/query.js';
import { stemWord } from './stem.js';

export interface CacheQuery {
  /** Rows must match this; absent when the query only excludes (`-draft`). */
  expression?: string;
  /** An exclusion-only query: rows matching this are left out of the listing. */
  excluded?: string;
  /** A question of several words: rank rows matching every phrase first. */
  every: boolean;
  /** Every positive word, for snippets (`prefix` on a prefix term's last word). */
  terms: Array<{ word: string; prefix: boolean }>;
}

/** A term's words as the index holds them: stemmed, but for a prefix (`plan*` matches what it spells). */
function indexed(term: QueryTerm): string[] {
  return term.words.map((w, i) => (term.prefix && i === term.words.length - 1 ? w : stemWord(w)));
}

function render(term: QueryTerm): string {
  const words = indexed(term).map((w, i) => (term.prefix && i === term.words.length - 1 ? `${w}*` : w));
  return term.phrase || words.length > 1 ? `"${words.join(' ')}"` : words[0]!;
}

/** The MATCH expressions for `text`, or undefined when it holds no word to look for or leave out. */
export function cacheQuery(text: string): CacheQuery | undefined {
  const query = parseQuery(text);
  const asked = questionTerms(query);
  const groups = asked ? [] : requiredGroups(query);
  const positive = asked ?? groups.flat();
  if (positive.length === 0)
    return query.none.length ? { excluded: query.none.map(render).join(' OR '), every: false, terms: [] } : undefined;
  const terms = positive.flatMap((t) =>
    indexed(t).map((word, i) => ({ word, prefix: t.prefix && i === t.words.length - 1 })),
  );
  if (asked) return { expression: asked.map(render).join(' OR '), every: asked.length > 1, terms };
  const all = groups.map((g) => (g.length > 1 ? `(${g.map(render).join(' OR ')})` : render(g[0]!))).join(' ');
  const none = query.none.map((t) => ` NOT ${render(t)}`).join('');
  return { expression: `(${all}${none})`, every: false, terms };
}

/** Okapi BM25 from FTS4's matchinfo('pcnalx') blob, with a weight per column (title, text, tags). */
export function bm25(
  matchinfo: Uint8Array,
  weights: readonly number[],
  k1 = 1.2,
  b = 0.75,
): { score: number; every: boolean } {
  const ints = new Uint32Array(matchinfo.buffer, matchinfo.byteOffset, matchinfo.byteLength / 4);
  const phrases = ints[0]!;
  const columns = ints[1]!;
  const rows = ints[2]!;
  const avgLength = (c: number) => ints[3 + c]!;
  const length = (c: number) => ints[3 + columns + c]!;
  const x = 3 + 2 * columns;
  let score = 0;
  let every = true;
  for (let p = 0; p < phrases; p += 1) {
    let found = false;
    for (let c = 0; c < columns; c += 1) {
      const base = x + 3 * (p * columns + c);
      const tf = ints[base]!;
      if (tf === 0) continue;
      found = true;
      const df = ints[base + 2]!;
      const idf = Math.log(1 + (rows - df + 0.5) / (df + 0.5));
      const norm = 1 - b + b * (length(c) / Math.max(1, avgLength(c)));
      score += (weights[c] ?? 1) * idf * ((tf * (k1 + 1)) / (tf + k1 * norm));
    }
    every &&= found;
  }
  return { score, every };
}
