/** The folding table: every letter of Latin-1 and Latin Extended-A folds to plain ASCII letters. */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { FOLDED_LETTERS, foldLetters } from '../../../toolkit/search/fold-letters.js';

const LISTED: Array<[string, string]> = [
  ['Ł', 'L'],
  ['ł', 'l'],
  ['Ø', 'O'],
  ['ø', 'o'],
  ['Æ', 'AE'],
  ['æ', 'ae'],
  ['ß', 'ss'],
  ['Đ', 'D'],
  ['đ', 'd'],
  ['ı', 'i'],
  ['Œ', 'OE'],
  ['œ', 'oe'],
  ['Þ', 'TH'],
  ['þ', 'th'],
  ['Ð', 'D'],
  ['ð', 'd'],
  ['Ħ', 'H'],
  ['ħ', 'h'],
  ['Ŧ', 'T'],
  ['ŧ', 't'],
  ['Ŋ', 'NG'],
  ['ŋ', 'ng'],
  ['ĸ', 'k'],
  ['Ŀ', 'L'],
  ['ŀ', 'l'],
  ['Ĳ', 'IJ'],
  ['ĳ', 'ij'],
  ['ſ', 's'],
  ['é', 'e'],
  ['Å', 'A'],
  ['ñ', 'n'],
  ['ç', 'c'],
  ['Ÿ', 'Y'],
  ['ő', 'o'],
  ['Ş', 'S'],
  ['ż', 'z'],
  ['ė', 'e'],
];

/** Every letter from U+00C0 to U+017F (Latin-1 Supplement letters and Latin Extended-A). */
const LATIN = Array.from({ length: 0x17f - 0xc0 + 1 }, (_, i) => String.fromCodePoint(0xc0 + i)).filter((ch) =>
  /\p{L}/u.test(ch),
);

describe('foldLetters', () => {
  it.each(LISTED)('%s → %s', (letter, folded) => {
    expect(foldLetters(letter)).toBe(folded);
  });

  it('folds every Latin-1 and Latin Extended-A letter to ASCII letters, keeping its case', () => {
    expect(LATIN.length).toBeGreaterThan(180);
    for (const ch of LATIN) {
      const folded = foldLetters(ch);
      expect(folded, `${ch} U+${ch.codePointAt(0)?.toString(16)}`).toMatch(/^[A-Za-z]+$/);
      if (ch !== ch.toLowerCase() && ch.toLowerCase().length === 1 && ch !== 'İ')
        expect(foldLetters(ch.toLowerCase())).toBe(folded.toLowerCase());
    }
    for (const ch of FOLDED_LETTERS) expect(foldLetters(ch)).toMatch(/^[A-Za-z]+$/);
  });

  it('folds words, precomposed or decomposed, and leaves other scripts and symbols alone', () => {
    expect(foldLetters('Łódź')).toBe('Lodz');
    expect(foldLetters('Lo\u0301dz\u0301')).toBe('Lodz');
    expect(foldLetters('Straße Ærøskøbing Kırşehir')).toBe('Strasse AEroskobing Kirsehir');
    expect(foldLetters('日本語 한국어 हिन्दी Ελληνικά')).toBe('日本語 한국어 हिन्दी Ελληνικα');
    expect(foldLetters('3 × 4 ÷ 2 ½ ©')).toBe('3 × 4 ÷ 2 ½ ©');
    expect(foldLetters('plain ascii')).toBe('plain ascii');
  });

  it('splits into the same words at the same positions under SQLite unicode61, so highlights stay aligned', () => {
    const db = new Database(':memory:');
    try {
      db.exec(
        "CREATE VIRTUAL TABLE t USING fts5(x, tokenize = 'unicode61 remove_diacritics 2'); CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')",
      );
      const text = `${LATIN.join('a ')} word${LATIN.join('')}end Łódź-Ærø ß ı Œuvre`;
      const insert = db.prepare('INSERT INTO t (rowid, x) VALUES (?, ?)');
      insert.run(1, text);
      insert.run(2, foldLetters(text));
      const positions = (doc: number) =>
        db.prepare('SELECT offset, term FROM v WHERE doc = ? ORDER BY offset').all(doc) as Array<{
          offset: number;
          term: string;
        }>;
      const original = positions(1);
      const folded = positions(2);
      expect(folded.map((t) => t.offset)).toEqual(original.map((t) => t.offset));
      for (const t of folded) expect(t.term).toMatch(/^[a-z0-9]+$/);
    } finally {
      db.close();
    }
  });
});
