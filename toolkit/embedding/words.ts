/**
 * Words as both search legs see them: case and letters folded (`foldWords`: `Łódź` → `lodz`, as
 * the keyword indexes hold them), letters and digits only, and
 * English stop-words recognised (they carry no topic: a keyword leg that kept "how" and "the"
 * would match every note and outvote the vectors in the fusion).
 */
import { foldWords } from '../text/fold-letters.js';

const WORD = /[\p{L}\p{N}]+/gu;

export function wordsOf(text: string): string[] {
  return foldWords(text).match(WORD) ?? [];
}

// The common function words of English questions and notes (NLTK's list, trimmed).
const STOP_WORDS = new Set(
  `a about above after again against all am an and any are as at be because been before being below between both but by
can could did do does doing down during each few for from further had has have having he her here hers herself him
himself his how i if in into is it its itself just me more most my myself no nor not now of off on once only or other
our ours ourselves out over own same she should so some such than that the their theirs them themselves then there
these they this those through to too under until up very was we were what when where which while who whom why will
with would you your yours yourself yourselves s t don shall may might must also get got one ones`.split(/\s+/),
);

export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}

/** The words that carry content: stop-words dropped, unless nothing else is left. */
export function contentWords(text: string): string[] {
  const words = wordsOf(text);
  const content = words.filter((w) => !STOP_WORDS.has(w));
  return content.length ? content : words;
}
