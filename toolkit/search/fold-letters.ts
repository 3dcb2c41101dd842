/**
 * Letter folding for search and link names: `Łódź`, `Lodz` and `lodz` are one word. Canonical
 * decomposition removes combining accents (é → e, ń → n); the letters Unicode does not decompose
 * (ł, ø, æ, ß, đ, ı, œ, þ, … — Latin-1 and Latin Extended-A) come from the table below. Case is
 * kept: callers fold case themselves (SQLite's tokenizer does, link names lower-case).
 *
 * Every replacement is letters for letters, so a folded text splits into the same words at the
 * same positions as the original: the full-text index can hold the folded text while highlight
 * and snippet read the original (decision 026).
 */

const LETTERS: Readonly<Record<string, string>> = {
  Æ: 'AE',
  æ: 'ae',
  Ð: 'D',
  ð: 'd',
  Ø: 'O',
  ø: 'o',
  Þ: 'TH',
  þ: 'th',
  ß: 'ss',
  ẞ: 'SS',
  Đ: 'D',
  đ: 'd',
  Ħ: 'H',
  ħ: 'h',
  ı: 'i',
  Ĳ: 'IJ',
  ĳ: 'ij',
  ĸ: 'k',
  Ŀ: 'L',
  ŀ: 'l',
  Ł: 'L',
  ł: 'l',
  ŉ: 'n',
  Ŋ: 'NG',
  ŋ: 'ng',
  Œ: 'OE',
  œ: 'oe',
  Ŧ: 'T',
  ŧ: 't',
  ſ: 's',
  ª: 'a',
  º: 'o',
};

const UNDECOMPOSED = new RegExp(`[${Object.keys(LETTERS).join('')}]`, 'gu');
/**
 * Combining diacritics (U+0300–U+036F, the accents of Latin, Greek and Cyrillic) after a letter,
 * digit or mark. A mark standing alone is a word of its own and stays; the vowel signs of other
 * scripts are letters' parts, not accents, and stay too.
 */
const ATTACHED_MARKS = /(?<=[\p{L}\p{N}\p{M}])[\u0300-\u036f]+/gu;
const NON_ASCII = /[^\x00-\x7f]/;

export function foldLetters(text: string): string {
  // Most notes are ASCII: one scan, no copy.
  if (!NON_ASCII.test(text)) return text;
  return text
    .normalize('NFD')
    .replace(ATTACHED_MARKS, '')
    .replace(UNDECOMPOSED, (ch) => LETTERS[ch] ?? ch)
    .normalize('NFC');
}

/** The letters the table folds (the test walks them). */
export const FOLDED_LETTERS: readonly string[] = Object.keys(LETTERS);

/** Letters folded and case folded: the words every search compares (`Łódź`, `LODZ` → `lodz`). */
export function foldWords(text: string): string {
  return foldLetters(text).toLowerCase();
}
