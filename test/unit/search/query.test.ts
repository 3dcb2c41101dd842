/** The kernel's query parser (docs/search-syntax.md): the tree every engine compiles. */
import { describe, expect, it } from 'vitest';
import { markedWords, parseQuery, questionTerms, requiredGroups } from '../../../toolkit/search/query.js';

const words = (terms: ReadonlyArray<{ words: string[] }> | undefined) => terms?.map((t) => t.words.join(' '));

describe('parseQuery', () => {
  it('reads words and quoted phrases as a question, and any other syntax as what it spells', () => {
    expect(parseQuery('When did Caroline go to the LGBTQ support group?').question).toBe(true);
    expect(parseQuery('When did Melanie read "The Four Seasons"?').question).toBe(true);
    for (const text of ['review -draft', 'review NOT draft', 'a OR b', 'a AND b', 'plan*', '"road map"*'])
      expect(parseQuery(text).question, text).toBe(false);
  });

  it('groups OR with its neighbours, collects exclusions, folds letters and bounds nothing typed', () => {
    const q = parseQuery('x b OR c y -Łódź NOT "old plan"');
    expect(q.all.map((g) => g.map((t) => t.words.join(' ')))).toEqual([['x'], ['b', 'c'], ['y']]);
    expect(words(q.none)).toEqual(['lodz', 'old plan']);
    expect(parseQuery('!!! ( ) * ^ :').all).toEqual([]);
    expect(parseQuery(Array.from({ length: 500 }, (_, i) => `w${i}`).join(' ')).all).toHaveLength(32);
  });

  it('takes out the fields a caller offers, quoted values included, and leaves the rest as text', () => {
    const q = parseQuery('kestrel tag:birds -tag:"old stuff" before:2024-01-01 http://x.org', {
      fields: ['tag', 'before'],
    });
    expect(q.filters).toEqual([
      { field: 'tag', value: 'birds', negated: false },
      { field: 'tag', value: 'old stuff', negated: true },
      { field: 'before', value: '2024-01-01', negated: false },
    ]);
    expect(q.rest).toBe('kestrel http://x.org');
    expect(q.question).toBe(true);
  });
});

describe('questionTerms', () => {
  it('drops stop words (unless nothing else is left), keeps quoted phrases whole, shrinks joined tokens to their content', () => {
    expect(words(questionTerms(parseQuery('When did Caroline go to the LGBTQ support group?')))).toEqual([
      'caroline',
      'go',
      'lgbtq',
      'support',
      'group',
    ]);
    expect(words(questionTerms(parseQuery('Would Melanie enjoy "The Four Seasons" by Vivaldi?')))).toEqual([
      'melanie',
      'enjoy',
      'the four seasons',
      'vivaldi',
    ]);
    expect(words(questionTerms(parseQuery("What is Caroline's node.js identity?")))).toEqual([
      'caroline',
      'node js',
      'identity',
    ]);
    expect(words(questionTerms(parseQuery('to be or not to be')))).toEqual(['to', 'be', 'or', 'not']);
    expect(questionTerms(parseQuery('review -draft'))).toBeUndefined();
  });

  it('a syntax query drops a lone stop word; snippets mark the words searched', () => {
    expect(words(requiredGroups(parseQuery('how do I bake "sourdough bread" -rye')).flat())).toEqual([
      'bake',
      'sourdough bread',
    ]);
    expect(markedWords(parseQuery('How do I bake bread?'))).toEqual(['bake', 'bread']);
  });
});
