/**
 * The agent's search syntax (kernel/backend.ts `SearchQuery.text`) → an FTS5 MATCH expression.
 * Every term is re-quoted from its letters and digits, so nothing typed reaches FTS5's grammar
 * and no query is a syntax error. `all` (the agent syntax): words must all appear, `a OR b`
 * splits alternatives. `any`: every content word is an alternative — the looser keyword leg the
 * fusion was measured with (decision 018).
 */
import { isStopWord } from '../../toolkit/embedding/words.js';
import { foldWords } from '../../toolkit/text/fold-letters.js';

interface Term {
  words: string[];
  phrase: boolean;
  prefix: boolean;
}

export interface ParsedQuery {
  /** Alternatives (split at OR), each a list of terms that must all match. */
  alternatives: Term[][];
  /** `-word` and `-"a phrase"`: notes holding any of them are left out. */
  excluded: Term[];
}

const WORD = /[\p{L}\p{N}]+/gu;

export function parseQuery(text: string): ParsedQuery {
  const alternatives: Term[][] = [[]];
  const excluded: Term[] = [];
  for (const [, negated, phrase, bare] of foldWords(text).matchAll(/(-?)(?:"([^"]*)"?|(\S+))/g)) {
    if (bare === 'or' && !negated) {
      alternatives.push([]);
      continue;
    }
    const source = phrase ?? bare ?? '';
    const words = source.match(WORD) ?? [];
    if (words.length === 0) continue;
    const term: Term = { words, phrase: phrase !== undefined, prefix: phrase === undefined && source.endsWith('*') };
    if (negated) excluded.push(term);
    else if (term.phrase || term.prefix) alternatives[alternatives.length - 1]!.push(term);
    // A bare token such as "e-mail" holds several words; each must appear.
    else for (const word of words) alternatives[alternatives.length - 1]!.push({ words: [word], phrase: false, prefix: false });
  }
  return { alternatives: alternatives.filter((terms) => terms.length).map(dropStopWords), excluded };
}

/** Stop-words match nearly every note; they are dropped unless a clause holds nothing else. */
function dropStopWords(terms: Term[]): Term[] {
  const kept = terms.filter((t) => t.phrase || t.prefix || !isStopWord(t.words[0]!));
  return kept.length ? kept : terms;
}

export function hasTerms(query: ParsedQuery): boolean {
  return query.alternatives.length > 0;
}

/** The MATCH expression for the query's positive terms, or undefined when there are none. */
export function ftsMatch(query: ParsedQuery, join: 'all' | 'any'): string | undefined {
  if (!hasTerms(query)) return undefined;
  if (join === 'any') return [...new Set(query.alternatives.flat().map(ftsTerm))].join(' OR ');
  return query.alternatives.map((terms) => `(${terms.map(ftsTerm).join(' AND ')})`).join(' OR ');
}

/** The MATCH expression for excluded terms, or undefined without any. */
export function ftsExcluded(query: ParsedQuery): string | undefined {
  return query.excluded.length ? query.excluded.map(ftsTerm).join(' OR ') : undefined;
}

/** The query as the model reads it: the words (stop-words too) without the agent syntax. */
export function semanticSentence(text: string): string {
  return text.replace(/(^|\s)-\S+/g, ' ').replace(/["*]/g, ' ').replace(/\bOR\b/g, ' ').trim();
}

/** Words worth a `<mark>` in a snippet built outside FTS5. */
export function markableWords(query: ParsedQuery): string[] {
  return [...new Set(query.alternatives.flat().flatMap((t) => t.words))];
}

function ftsTerm(term: Term): string {
  const quoted = `"${term.words.join(' ')}"`;
  return term.prefix ? `${quoted}*` : quoted;
}

/**
 * The same query for PostgreSQL's `to_tsquery('simple', …)` (the postgres engine): words quoted
 * as lexemes, phrases joined by `<->`, a prefix as `:*`. Words hold only letters and digits, so
 * nothing typed reaches the tsquery grammar.
 */
export function tsQuery(query: ParsedQuery, join: 'all' | 'any'): string | undefined {
  if (!hasTerms(query)) return undefined;
  if (join === 'any') return [...new Set(query.alternatives.flat().map(tsTerm))].join(' | ');
  return query.alternatives.map((terms) => `(${terms.map(tsTerm).join(' & ')})`).join(' | ');
}

export function tsExcluded(query: ParsedQuery): string | undefined {
  return query.excluded.length ? query.excluded.map(tsTerm).join(' | ') : undefined;
}

function tsTerm(term: Term): string {
  const words = term.words.map((w) => `'${w}'`);
  if (term.prefix) words[words.length - 1] += ':*';
  return words.length > 1 ? `(${words.join(' <-> ')})` : words[0]!;
}
