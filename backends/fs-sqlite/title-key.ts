/**
 * A title's words as one lookup key: letter-folded, lower-cased, one space between words, the
 * punctuation the full-text tokenizer drops dropped too. "Project Quasar 13", "project  quasar
 * 13" and "Project: Quasar-13" share the key `project quasar 13`, so an exact-title search is
 * one index seek (`nk_title_keys`) instead of ranking every note that holds those words.
 */
import { foldLetters } from '../../toolkit/search/fold-letters.js';

/** Words and digits as unicode61 sees them; everything else separates tokens. */
const TOKEN = /[\p{L}\p{N}\p{M}\p{Co}]+/gu;

/** The words of a text, letter-folded as the full-text index holds them (`Łódź` → `Lodz`). */
export function words(text: string): string[] {
  return foldLetters(text).match(TOKEN) ?? [];
}

export function titleKey(title: string): string {
  return words(title).join(' ').toLowerCase();
}
