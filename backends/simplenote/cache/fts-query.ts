/**
 * Agent search syntax → an FTS4 MATCH expression (enhanced query syntax: AND by juxtaposition,
 * OR, NOT, parentheses). Words are reduced to letters and digits, lower-cased and letter-folded
 * as the index holds them (`Łódź` → `lodz`), so nothing a user types becomes an operator or a
 * syntax error; `a OR b` splits alternatives at the top.
 */
import { foldWords } from '../../../toolkit/text/fold-letters.js';

export interface Term {
  word: string;
  prefix: boolean;
}

export interface Clause {
  terms: Term[];
  phrase: boolean;
  negated: boolean;
}

const WORD = /[\p{L}\p{N}]+/gu;

/** Alternatives (split at OR), each a list of clauses that must all hold. Alternatives without a positive clause are dropped. */
export function parseQuery(text: string): Clause[][] {
  const alternatives: Clause[][] = [[]];
  for (const [, negated, phrase, bare] of text.matchAll(/(-?)(?:"([^"]*)"?|(\S+))/g)) {
    if (bare === 'OR' && !negated) {
      alternatives.push([]);
      continue;
    }
    const source = foldWords(phrase ?? bare ?? '');
    const terms = [...source.matchAll(WORD)].map((m) => ({ word: m[0], prefix: false }));
    if (terms.length === 0) continue;
    if (phrase === undefined && source.endsWith('*')) terms[terms.length - 1]!.prefix = true;
    if (phrase === undefined && terms.length > 1) {
      // "e-mail" or "a.b": FTS4 would tokenise it into a phrase anyway; keep the words together.
      alternatives.at(-1)!.push({ terms, phrase: true, negated: negated === '-' });
      continue;
    }
    alternatives.at(-1)!.push({ terms, phrase: phrase !== undefined, negated: negated === '-' });
  }
  return alternatives.filter((clauses) => clauses.some((c) => !c.negated));
}

/** The MATCH expression, or undefined when the text holds no word to look for. */
export function matchExpression(alternatives: Clause[][]): string | undefined {
  if (alternatives.length === 0) return undefined;
  const render = (clause: Clause) => {
    const words = clause.terms.map((t) => `${t.word}${t.prefix ? '*' : ''}`);
    return clause.phrase || words.length > 1 ? `"${words.join(' ')}"` : words[0]!;
  };
  const alternative = (clauses: Clause[]) => {
    const positive = clauses.filter((c) => !c.negated).map(render).join(' ');
    const negative = clauses.filter((c) => c.negated).map((c) => ` NOT ${render(c)}`).join('');
    return `(${positive}${negative})`;
  };
  return alternatives.map(alternative).join(' OR ');
}

/** Okapi BM25 from FTS4's matchinfo('pcnalx') blob, with a weight per column (title, text, tags). */
export function bm25(matchinfo: Uint8Array, weights: readonly number[], k1 = 1.2, b = 0.75): number {
  const ints = new Uint32Array(matchinfo.buffer, matchinfo.byteOffset, matchinfo.byteLength / 4);
  const phrases = ints[0]!;
  const columns = ints[1]!;
  const rows = ints[2]!;
  const avgLength = (c: number) => ints[3 + c]!;
  const length = (c: number) => ints[3 + columns + c]!;
  const x = 3 + 2 * columns;
  let score = 0;
  for (let p = 0; p < phrases; p += 1) {
    for (let c = 0; c < columns; c += 1) {
      const base = x + 3 * (p * columns + c);
      const tf = ints[base]!;
      if (tf === 0) continue;
      const df = ints[base + 2]!;
      const idf = Math.log(1 + (rows - df + 0.5) / (df + 0.5));
      const norm = 1 - b + b * (length(c) / Math.max(1, avgLength(c)));
      score += (weights[c] ?? 1) * idf * ((tf * (k1 + 1)) / (tf + k1 * norm));
    }
  }
  return score;
}
