/**
 * The parsed query (query.ts) → the keyword leg's expressions: FTS5 MATCH for
 * the sqlite engine, `to_tsquery('simple', …)` for postgres. Every term is re-quoted from its
 * folded words, so nothing typed reaches either grammar and no query is a syntax error. A
 * question matches any of its content words (`match`) and ranks passages holding every one of
 * them (`every`) first; a query that spells its syntax keeps it (every group must hold).
 */
import { parseQuery, questionTerms, markedWords, requiredGroups, type ParsedQuery, type QueryTerm } from './query.js';

export { parseQuery, type ParsedQuery };

/** One engine's spelling of terms and joins. */
interface Dialect {
  term(term: QueryTerm): string;
  and: string;
  or: string;
}

const FTS5: Dialect = {
  term: (t) => `"${t.words.join(' ')}"${t.prefix ? '*' : ''}`,
  and: ' AND ',
  or: ' OR ',
};

/** Words quoted as lexemes, a phrase joined by `<->`, a prefix as `:*`. */
const TSQUERY: Dialect = {
  term: (t) => {
    const words = t.words.map((w) => `'${w}'`);
    if (t.prefix) words[words.length - 1] += ':*';
    return words.length > 1 ? `(${words.join(' <-> ')})` : words[0]!;
  },
  and: ' & ',
  or: ' | ',
};

export interface KeywordExpressions {
  /** Passages must match this. */
  match: string;
  /** A question of several words: passages matching this rank first. */
  every?: string;
  /** A question of several words: each of its terms alone, for how much of it a passage holds. */
  terms?: string[];
}

export function hasTerms(query: ParsedQuery): boolean {
  return query.all.length > 0;
}

function compile(query: ParsedQuery, d: Dialect): KeywordExpressions | undefined {
  if (!hasTerms(query)) return undefined;
  const asked = questionTerms(query);
  if (asked) {
    const terms = asked.map(d.term);
    return {
      match: terms.join(d.or),
      ...(terms.length > 1 ? { every: terms.map((t) => `(${t})`).join(d.and), terms } : {}),
    };
  }
  return {
    match: requiredGroups(query)
      .map((group) => `(${group.map(d.term).join(d.or)})`)
      .join(d.and),
  };
}

export function ftsExpressions(query: ParsedQuery): KeywordExpressions | undefined {
  return compile(query, FTS5);
}

export function tsExpressions(query: ParsedQuery): KeywordExpressions | undefined {
  return compile(query, TSQUERY);
}

/** The MATCH expression for excluded terms, or undefined without any. */
export function ftsExcluded(query: ParsedQuery): string | undefined {
  return query.none.length ? query.none.map(FTS5.term).join(FTS5.or) : undefined;
}

export function tsExcluded(query: ParsedQuery): string | undefined {
  return query.none.length ? query.none.map(TSQUERY.term).join(TSQUERY.or) : undefined;
}

/** The query as the model reads it: the words (stop-words too) without the agent syntax. */
export function semanticSentence(text: string): string {
  return text
    .replace(/(^|\s)-\S+/g, ' ')
    .replace(/["*]/g, ' ')
    .replace(/\bOR\b/g, ' ')
    .trim();
}

/** Words worth a `<mark>` in a snippet built outside FTS5. */
export function markableWords(query: ParsedQuery): string[] {
  return markedWords(query);
}
