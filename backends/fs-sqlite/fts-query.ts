/**
 * Agent query syntax → an FTS5 MATCH expression. Agents type what they would type into a web
 * search box: words, "quoted phrases", `plan*`, `-exclude`, `a OR b`. Every term is rebuilt from
 * its letters and digits and emitted inside double quotes, so no character an agent types can
 * reach FTS5's own grammar (columns, NEAR, ^, parentheses): nothing here is a syntax error.
 */
import { titleKey, words } from './title-key.js';

/** Bounds an expression so a pasted document cannot become a huge query. */
const MAX_CLAUSES = 32;
const MAX_TOKENS_PER_CLAUSE = 16;

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
}

interface Clause {
  phrase: string;
  negated: boolean;
}

type Item = Clause | 'OR';

/** The words of a query, letter-folded as the index holds them (`Łódź` → `Lodz`). */
export function tokens(text: string): string[] {
  return words(text);
}

/** `"tok tok"` (and `*` for a prefix), or undefined when the text holds no token at all. */
export function phrase(text: string, prefix = false): string | undefined {
  const found = tokens(text).slice(0, MAX_TOKENS_PER_CLAUSE);
  if (!found.length) return undefined;
  return `"${found.join(' ')}"${prefix ? '*' : ''}`;
}

/** Splits the agent's text into clauses and OR markers, honouring quotes and leading `-`. */
function scan(text: string): Item[] {
  const items: Item[] = [];
  let negateNext = false;
  let i = 0;
  while (i < text.length && items.length < MAX_CLAUSES * 2) {
    const ch = text[i] as string;
    if (isSpace(ch)) {
      i++;
      continue;
    }
    let negated = negateNext;
    negateNext = false;
    if ((ch === '-' || ch === '!') && i + 1 < text.length && !isSpace(text[i + 1] as string)) {
      negated = true;
      i++;
    }
    let body: string;
    let prefix = false;
    if (text[i] === '"') {
      const close = text.indexOf('"', i + 1);
      const end = close === -1 ? text.length : close;
      body = text.slice(i + 1, end);
      i = close === -1 ? text.length : close + 1;
      if (text[i] === '*') {
        prefix = true;
        i++;
      }
    } else {
      let end = i;
      while (end < text.length && !isSpace(text[end] as string) && text[end] !== '"') end++;
      body = text.slice(i, end);
      i = end;
      if (!negated && body === 'OR') {
        items.push('OR');
        continue;
      }
      if (!negated && body === 'AND') continue;
      if (!negated && body === 'NOT') {
        negateNext = true;
        continue;
      }
      prefix = body.endsWith('*');
    }
    const quoted = phrase(body, prefix);
    if (quoted) items.push({ phrase: quoted, negated });
  }
  return items;
}

/**
 * Positive clauses joined by `OR` form one group (`a b OR c d` is `a AND (b OR c) AND d`, as a
 * search box reads it, not FTS5's own precedence); groups are ANDed; exclusions are ORed into
 * one negative expression.
 */
export function parseAgentQuery(text: string): FtsQuery {
  const items = scan(text);
  const groups: string[][] = [];
  const negatives: string[] = [];
  let joinNext = false;
  for (const item of items) {
    if (item === 'OR') {
      joinNext = groups.length > 0;
      continue;
    }
    if (item.negated) {
      negatives.push(item.phrase);
      joinNext = false;
      continue;
    }
    const last = groups[groups.length - 1];
    if (joinNext && last) last.push(item.phrase);
    else groups.push([item.phrase]);
    joinNext = false;
  }
  const positive = groups
    .slice(0, MAX_CLAUSES)
    .map((g) => (g.length > 1 ? `(${g.join(' OR ')})` : (g[0] as string)))
    .join(' AND ');
  const negative = negatives.slice(0, MAX_CLAUSES).join(' OR ');
  return {
    ...(positive ? { positive } : {}),
    ...(negative ? { negative } : {}),
  };
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
  const items = scan(text);
  const last = items[items.length - 1];
  if (!last || last === 'OR' || items.some((item) => item === 'OR' || item.negated || (item !== last && item.phrase.endsWith('*')))) return undefined;
  const key = titleKey(text);
  return key === '' ? undefined : { key, prefix: last.phrase.endsWith('*') };
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

function isSpace(ch: string): boolean {
  return ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r' || ch === '\f' || ch === '\v' || ch === '\u00a0' || ch === '\u3000';
}
