/**
 * A passage's excerpt with the query's words in `<mark>`, cut in JavaScript: PostgreSQL's
 * `ts_headline` would mark only words spelt as the index stores them (case and letters folded:
 * `lodz` for `Łódź`), not the passage as written.
 */
import { foldWords } from './fold-letters.js';

const SNIPPET_CHARS = 200;
const LEAD_CHARS = 60;
/** A word as written, with its accents (a decomposed `Łódź` is one word, folded as the index folds it). */
const WORD = /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu;

export function markedSnippet(heading: string, text: string, words: readonly string[]): string {
  const wanted = new Set(words);
  for (const source of [text, heading]) {
    const marked = mark(source, wanted);
    if (marked !== undefined) return marked;
  }
  const plain = text || heading;
  return plain.length > SNIPPET_CHARS ? `${plain.slice(0, SNIPPET_CHARS)}…` : plain;
}

function mark(source: string, wanted: ReadonlySet<string>): string | undefined {
  const hits = [...source.matchAll(WORD)].filter((m) => wanted.has(foldWords(m[0])));
  if (hits.length === 0) return undefined;
  const start = Math.max(0, hits[0]!.index - LEAD_CHARS);
  const end = Math.min(source.length, start + SNIPPET_CHARS);
  let out = '';
  let at = start;
  for (const hit of hits) {
    if (hit.index < at || hit.index + hit[0].length > end) continue;
    out += `${source.slice(at, hit.index)}<mark>${hit[0]}</mark>`;
    at = hit.index + hit[0].length;
  }
  out += source.slice(at, end);
  return `${start > 0 ? '…' : ''}${out}${end < source.length ? '…' : ''}`;
}
