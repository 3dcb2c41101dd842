/**
 * Stemming for the cache's search (issue 31: `run` finds "running"). sql.js's SQLite has FTS4
 * but not FTS5, and FTS4's own `porter` sits on its ASCII tokenizer; so the words are stemmed
 * here — Porter's algorithm (the `stemmer` package), as hybrid-search's FTS5 `porter` does —
 * before unicode61 tokenizes them, in the index and in queries alike. Words of other scripts
 * pass through unchanged.
 */
import { stemmer } from 'stemmer';

/** Letters and digits with their marks: a word as unicode61 cuts folded text. */
const WORD = /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu;

/**
 * Words repeat: a full sync of 10,000 notes stems ~3 million words, 2.0 s one by one and 0.23 s
 * through this memo (measured on this machine). Cleared when it grows past MEMO_LIMIT.
 */
const memo = new Map<string, string>();
const MEMO_LIMIT = 100_000;

export function stemWord(word: string): string {
  let stem = memo.get(word);
  if (stem === undefined) {
    if (memo.size >= MEMO_LIMIT) memo.clear();
    stem = stemmer(word.toLowerCase());
    memo.set(word, stem);
  }
  return stem;
}

/** Every word of already letter-folded text, stemmed in place. */
export function stemText(folded: string): string {
  return folded.replace(WORD, stemWord);
}
