/**
 * The parsed query (toolkit/search/query.ts) → FTS5 MATCH expressions. Every term is emitted
 * inside double quotes from its folded words, so nothing an agent types reaches FTS5's own
 * grammar (columns, NEAR, ^, parentheses). A question matches any of its content words and
 * carries a second expression, every one of them, that ranks notes holding all of them first.
 */
import {
  parseQuery,
  questionTerms,
  queryWords,
  requiredGroups,
  type ParsedQuery,
  type QueryTerm,
} from '../../toolkit/search/query.js';

/**
 * Words match in title and content: `id` and `type` are UNINDEXED (schema 4). A column filter
 * (`{title content} :`) made FTS5 read every match's position list just to count it: twice the
 * time of the same query without one.
 */

export interface FtsQuery {
  /** Rows must match this; undefined when the query has no positive term. */
  positive?: string;
  /** Rows must not match this; undefined when nothing is excluded. */
  negative?: string;
  /** A question of several words: rows matching this (all of them) rank above the rest. */
  every?: string;
  /** A question of several words: each of its terms as an expression (`"word"`, `"two words"`). */
  terms?: string[];
}

/** `"tok tok"` (and `*` for a prefix), or undefined when the text holds no token at all. */
export function phrase(text: string, prefix = false): string | undefined {
  return termOf({ words: queryWords(text), phrase: true, prefix });
}

function termOf(term: QueryTerm): string | undefined {
  if (!term.words.length) return undefined;
  return `"${term.words.join(' ')}"${term.prefix ? '*' : ''}`;
}

/** The agent's text, as FTS5 expressions (see toolkit/search/query.ts for what each part means). */
export function parseAgentQuery(text: string): FtsQuery {
  return compileQuery(parseQuery(text));
}

export function compileQuery(query: ParsedQuery): FtsQuery {
  const negative = query.none.map(termOf).join(' OR ');
  const asked = questionTerms(query);
  if (asked) {
    const terms = asked.map((term) => termOf(term) as string);
    return { positive: terms.join(' OR '), ...(terms.length > 1 ? { every: terms.join(' AND '), terms } : {}) };
  }
  const positive = requiredGroups(query)
    .map((group) => (group.length > 1 ? `(${group.map(termOf).join(' OR ')})` : (termOf(group[0]!) as string)))
    .join(' AND ');
  return { ...(positive ? { positive } : {}), ...(negative ? { negative } : {}) };
}

/** The title a query names, as a title key; `prefix` when its last word ends in `*` (`Project Qua*`). */
export interface TitleOfQuery {
  key: string;
  prefix: boolean;
}

/**
 * The title a plain query names (`Project Quasar 13`, `"weekly review"`), or the start of one
 * when only its last word is a prefix (`Project Qua*`); undefined when the query excludes,
 * alternates or asks for a prefix earlier on, where "the note titled so" means nothing.
 */
export function titleKeyOfQuery(text: string): TitleOfQuery | undefined {
  const query = parseQuery(text);
  const terms = query.all.map((group) => group[0]!);
  const last = terms[terms.length - 1];
  if (!last || query.none.length || query.all.some((g) => g.length > 1) || terms.some((t) => t !== last && t.prefix))
    return undefined;
  return { key: terms.flatMap((t) => t.words).join(' '), prefix: last.prefix };
}

/** `content_contains`: the words in order, the last one a prefix, in the content column only. */
export function contentPhrase(text: string): string | undefined {
  const quoted = phrase(text, true);
  return quoted ? `{content} : ${quoted}` : undefined;
}

/** Joins expressions into one MATCH (FTS5 allows a single MATCH per table in a query). */
export function combine(positives: ReadonlyArray<string | undefined>, negative?: string): string | undefined {
  const parts = positives.filter((p): p is string => p !== undefined);
  if (!parts.length) return undefined;
  const all = parts.length > 1 ? parts.map((p) => `(${p})`).join(' AND ') : (parts[0] as string);
  return negative ? `(${all}) NOT (${negative})` : all;
}
