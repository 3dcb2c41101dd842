/**
 * The agent's search syntax, parsed once into data every engine compiles (docs/search-syntax.md).
 * Words, `"quoted phrases"`, `plan*` prefixes, `-exclusions` (`NOT word`), `a OR b`, and the
 * `field:value` filters a caller offers (`tag:`, `before:`, …). Words are letter- and case-folded
 * as every index holds them (`Łódź` → `lodz`) and hold only letters, digits and marks, so nothing
 * typed reaches an engine's own grammar and no query is a syntax error.
 *
 * A query of words and quoted phrases (filters aside) is read as a question (`question`): engines
 * match its content words and phrases (`questionTerms`: stop words dropped) with OR, rank by BM25,
 * and put notes holding every one of them first. A query that uses any syntax keeps the exact meaning it spells: every group must hold.
 */
import { stopwords } from '@orama/stopwords/english';
import { foldWords } from './fold-letters.js';

export interface QueryTerm {
  /** Folded words; more than one for a phrase ("weekly review") or a joined token (`e-mail`). */
  words: string[];
  /** Quoted, or a bare token that held several words: the words in this order. */
  phrase: boolean;
  /** `plan*`: the last word is a prefix. */
  prefix: boolean;
  /** Typed in quotes: kept whole in a question, stop words and all ("The Four Seasons"). */
  quoted?: boolean;
}

export interface QueryFilter {
  /** The field as the caller named it (lower case). */
  field: string;
  /** The value as typed (quotes removed), not folded: a date or a tag keeps its spelling. */
  value: string;
  negated: boolean;
}

export interface ParsedQuery {
  /** Groups that must all hold; a group holds when any of its terms matches (`a OR b`). */
  all: QueryTerm[][];
  /** A note holding any of these is left out. */
  none: QueryTerm[];
  filters: QueryFilter[];
  /** Words and quoted phrases only (no prefix, exclusion or operator; filters aside): searched as a question. */
  question: boolean;
  /** The text without the recognised filters: what an engine given only text parses again. */
  rest: string;
}

export interface ParseOptions {
  /** Field names recognised before a colon (`tag` for `tag:work`); anything else is words. */
  fields?: readonly string[];
}

/** Bounds a query so a pasted document cannot become a huge expression. */
export const MAX_TERMS = 32;
const MAX_WORDS_PER_TERM = 16;

/** Letters, digits and marks, as SQLite's unicode61 tokenizer splits words. */
const WORD = /[\p{L}\p{N}\p{M}\p{Co}]+/gu;
/** One item: an optional `-`, then a quoted run (with an optional `*`) or a bare run. */
const ITEM = /(-?)(?:([\p{L}_][\p{L}\p{N}_-]*):(?:"([^"]*)"?|(\S*))|"([^"]*)"?(\*?)|(\S+))/gu;

/** The folded words of a text, as every index holds them. */
export function queryWords(text: string): string[] {
  return foldWords(text).match(WORD) ?? [];
}

export function parseQuery(text: string, options: ParseOptions = {}): ParsedQuery {
  const fields = new Set((options.fields ?? []).map((f) => f.toLowerCase()));
  const all: QueryTerm[][] = [];
  const none: QueryTerm[] = [];
  const filters: QueryFilter[] = [];
  let question = true;
  let orNext = false;
  let notNext = false;
  let rest = '';
  let from = 0;
  for (const m of text.matchAll(ITEM)) {
    const [whole, dash, field, fieldQuoted, fieldBare, quoted, star, bare] = m;
    const negated = dash === '-' || notNext;
    notNext = false;
    if (field !== undefined && fields.has(field.toLowerCase())) {
      filters.push({ field: field.toLowerCase(), value: fieldQuoted ?? fieldBare ?? '', negated });
      rest += text.slice(from, m.index);
      from = m.index + whole.length;
      continue;
    }
    if (!negated && bare !== undefined && (bare === 'OR' || bare === 'AND' || bare === 'NOT')) {
      question = false;
      if (bare === 'OR') orNext = all.length > 0;
      if (bare === 'NOT') notNext = true;
      continue;
    }
    const source = quoted ?? (field !== undefined ? whole.slice(dash === '-' ? 1 : 0) : (bare ?? ''));
    const words = queryWords(source).slice(0, MAX_WORDS_PER_TERM);
    if (words.length === 0) continue;
    const prefix = quoted !== undefined ? star === '*' : source.endsWith('*');
    const term: QueryTerm = {
      words,
      phrase: quoted !== undefined || words.length > 1,
      prefix,
      ...(quoted !== undefined ? { quoted: true } : {}),
    };
    if (negated || prefix) question = false;
    if (negated) {
      if (none.length < MAX_TERMS) none.push(term);
    } else if (orNext) all[all.length - 1]!.push(term);
    else if (all.length < MAX_TERMS) all.push([term]);
    orNext = false;
  }
  rest = (rest + text.slice(from)).replace(/\s+/g, ' ').trim();
  return { all, none, filters, question: question && all.length > 0, rest };
}

/**
 * Snowball's English stop words (Orama's list; its `a` restored), with contractions split as
 * words are, at the apostrophe (`don't` → `don`, `t`): words hold no apostrophe. `won` (of
 * `won't`) is a word in its own right and stays searchable.
 */
const STOP_WORDS: ReadonlySet<string> = new Set(
  ['a', ...stopwords.flatMap((w) => w.split("'"))].filter((w) => w !== 'won'),
);

export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}

/**
 * A question's terms worth matching, each once, in the order asked: stop words dropped unless
 * nothing else is left ("to be or not to be"). A joined token keeps its words together when two
 * or more carry content (`node.js`, `state-of-the-art`) and shrinks to the one that does
 * (`Caroline's` → `caroline`). Undefined for a query that is not a question.
 */
export function questionTerms(query: ParsedQuery): QueryTerm[] | undefined {
  if (!query.question) return undefined;
  const asked = query.all.flat();
  const content = asked.flatMap((term): QueryTerm[] => {
    if (term.quoted) return [term];
    const kept = term.words.filter((w) => !STOP_WORDS.has(w));
    if (kept.length === 0) return [];
    return kept.length === 1 ? [{ words: kept, phrase: false, prefix: false }] : [term];
  });
  const seen = new Set<string>();
  return (content.length ? content : asked).filter((term) => {
    const key = term.words.join(' ');
    return !seen.has(key) && seen.add(key) !== undefined;
  });
}

/**
 * The groups a query that spells its syntax requires: a lone bare stop word (`How do I bake
 * "sourdough bread" -rye`) is dropped, as in a question, unless nothing else is left.
 */
export function requiredGroups(query: ParsedQuery): QueryTerm[][] {
  const kept = query.all.filter(
    (group) => group.length > 1 || group[0]!.phrase || group[0]!.prefix || !STOP_WORDS.has(group[0]!.words[0]!),
  );
  return kept.length ? kept : query.all;
}

/** Every positive word of a query, once: what a snippet marks. */
export function markedWords(query: ParsedQuery): string[] {
  return [...new Set((questionTerms(query) ?? requiredGroups(query).flat()).flatMap((t) => t.words))];
}
