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
 * One word, lower-cased first. Not memoised: at 10,000 notes the stemming of their 640,000 words
 * is 0.33 s of a 2.5 s full sync, and a memo saved 12 % of it (`BENCH_ONLY=simplenote npm run
 * bench`), under what pays for the code.
 */
export function stemWord(word: string): string {
  return stemmer(word.toLowerCase());
}

/** Every word of already letter-folded text, stemmed in place. */
export function stemText(folded: string): string {
  return folded.replace(WORD, stemWord);
}
