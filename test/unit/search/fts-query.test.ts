/** Agent query syntax → FTS5: the exact expressions, and that nothing typed escapes the quotes. */
import { describe, expect, it } from 'vitest';
import {
  combine,
  contentPhrase,
  parseAgentQuery,
  phrase,
  titleKeyOfQuery,
} from '../../../backends/fs-sqlite/fts-query.js';

const P = (inner: string) => inner;

describe('parseAgentQuery', () => {
  it.each<[string, string | undefined, string | undefined]>([
    ['meeting AND notes', P('"meeting" AND "notes"'), undefined],
    ['"meeting notes"', P('"meeting notes"'), undefined],
    ['plan*', P('"plan"*'), undefined],
    ['"road map"*', P('"road map"*'), undefined],
    ['review -draft', P('"review"'), P('"draft"')],
    ['review NOT draft', P('"review"'), P('"draft"')],
    ['-draft -old', undefined, P('"draft" OR "old"')],
    ['x b OR c y', P('"x" AND ("b" OR "c") AND "y"'), undefined],
    ['x OR b OR c', P('("x" OR "b" OR "c")'), undefined],
    ['OR x OR', P('"x"'), undefined],
    ['x AND b', P('"x" AND "b"'), undefined],
    ['the AND budget', P('"budget"'), undefined],
    ['node.js', P('"node js"'), undefined],
    ['title:plan', P('"title plan"'), undefined],
    ['"unclosed phrase', P('"unclosed phrase"'), undefined],
    ['Café AND Über', P('"cafe" AND "uber"'), undefined],
    ['Łódź AND straße', P('"lodz" AND "strasse"'), undefined],
    ['!!! ( ) * ^ :', undefined, undefined],
    ['', undefined, undefined],
  ])('%j', (text, positive, negative) => {
    const q = parseAgentQuery(text);
    expect(q.positive).toBe(positive);
    expect(q.negative).toBe(negative);
  });

  it('emits only quoted tokens, so quotes, braces and operators typed by the agent never reach FTS5', () => {
    const q = parseAgentQuery('"a" OR "b\'c" {x} NEAR(y z) ^w col:v -"-" *');
    const inner = q.positive ?? '';
    // Outside the quoted phrases only our own grammar remains.
    const outside = inner.replace(/"[^"]*"/g, '');
    expect(outside.replace(/\b(AND|OR)\b|[()*\s]/g, '')).toBe('');
    // `-"-"` holds no word: it excludes nothing rather than everything.
    expect(q.negative).toBeUndefined();
  });

  it('bounds the number of clauses', () => {
    const q = parseAgentQuery(Array.from({ length: 500 }, (_, i) => `w${i}`).join(' '));
    expect((q.positive ?? '').split(' AND ').length).toBeLessThanOrEqual(32);
  });
});

describe('a question (plain words)', () => {
  it.each<[string, string, string | undefined]>([
    [
      'When did Caroline go to the LGBTQ support group?',
      '"caroline" OR "go" OR "lgbtq" OR "support" OR "group"',
      '"caroline" AND "go" AND "lgbtq" AND "support" AND "group"',
    ],
    ['meeting notes', '"meeting" OR "notes"', '"meeting" AND "notes"'],
    ['Café Über', '"cafe" OR "uber"', '"cafe" AND "uber"'],
    ["What is Caroline's identity?", '"caroline" OR "identity"', '"caroline" AND "identity"'],
    ['node.js and the state-of-the-art', '"node js" OR "state of the art"', '"node js" AND "state of the art"'],
    ['lantern', '"lantern"', undefined],
    ['to be or not to be', '"to" OR "be" OR "or" OR "not"', '"to" AND "be" AND "or" AND "not"'],
  ])('%j matches any content word, ranking notes with all of them first', (text, positive, every) => {
    const q = parseAgentQuery(text);
    expect(q.positive).toBe(positive);
    expect(q.every).toBe(every);
    expect(q.negative).toBeUndefined();
  });
});

describe('helpers', () => {
  it('phrase keeps letters and digits only', () => {
    expect(phrase('C++ & "Rust"')).toBe('"c rust"');
    expect(phrase('…', true)).toBeUndefined();
  });

  it('contentPhrase targets the content column with a prefix on the last word', () => {
    expect(contentPhrase('code review')).toBe('{content} : "code review"*');
  });

  it('combine joins positives and subtracts the negative', () => {
    expect(combine(['A', undefined, 'B'], 'N')).toBe('((A) AND (B)) NOT (N)');
    expect(combine([undefined])).toBeUndefined();
  });
});

describe('titleKeyOfQuery', () => {
  it('names a title for plain words, the start of one when only the last word is a prefix, and none otherwise', () => {
    expect(titleKeyOfQuery('Project Quasar 13')).toEqual({ key: 'project quasar 13', prefix: false });
    expect(titleKeyOfQuery('"weekly review"')).toEqual({ key: 'weekly review', prefix: false });
    expect(titleKeyOfQuery('Project Qua*')).toEqual({ key: 'project qua', prefix: true });
    expect(titleKeyOfQuery('Łódź off*')).toEqual({ key: 'lodz off', prefix: true });
    for (const text of ['proj* Quasar', 'quasar -draft', 'quasar OR nebula', '***'])
      expect(titleKeyOfQuery(text)).toBeUndefined();
  });
});
