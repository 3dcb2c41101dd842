/** Reciprocal Rank Fusion, chunking and the keyword query parser: small pure functions, checked by example. */
import { describe, expect, it } from 'vitest';
import { ftsExpressions, parseQuery } from '../../../toolkit/search/keyword-expressions.js';
import { chunkNote } from '../../../toolkit/embedding/chunks.js';
import { passagesOf } from '../../../toolkit/embedding/passages.js';
import { scoreFusion } from '../../../toolkit/embedding/fusion.js';
import { rng } from '../../support/generate-vault.js';

describe('scoreFusion', () => {
  it("adds each list's scores divided by its best, weighted; a tie goes to the earlier list", () => {
    const fused = scoreFusion([
      { ids: ['a', 'b'], scores: [10, 5], weight: 0.8 },
      { ids: ['c', 'b'], scores: [0.9, 0.45], weight: 0.2 },
    ]).items;
    expect(fused.map((f) => f.id)).toEqual(['a', 'b', 'c']);
    expect(fused[0]!.score).toBeCloseTo(0.8);
    expect(fused[1]!.score).toBeCloseTo(0.4 + 0.1);
    expect(fused[2]!.score).toBeCloseTo(0.2);
    const tie = scoreFusion([
      { ids: ['x'], scores: [2], weight: 0.5 },
      { ids: ['y'], scores: [3], weight: 0.5 },
    ]).items;
    expect(tie.map((f) => f.id)).toEqual(['x', 'y']);
  });

  it("a note past a list's depth earns nothing from it but still counts", () => {
    const fused = scoreFusion([{ ids: ['a', 'b', 'c'], scores: [3, 2, 1], weight: 1 }], Infinity, 2);
    expect(fused.items.map((f) => [f.id, f.score])).toEqual([
      ['a', 1],
      ['b', 2 / 3],
      ['c', 0],
    ]);
    expect(fused.total).toBe(3);
  });

  it('a top of n is the first n of the whole order, and the total counts every id', () => {
    const next = rng(9);
    const ids = Array.from({ length: 3_000 }, (_, i) => `n${i}`);
    const shuffled = () => [...ids].sort(() => next() - 0.5).slice(0, 1_000 + Math.floor(next() * 2_000));
    const scored = (list: string[], weight: number) => ({
      ids: list,
      scores: list.map((_, i) => list.length - i),
      weight,
    });
    for (let round = 0; round < 5; round++) {
      const lists = [scored(shuffled().slice(0, 300), 0.8), scored(shuffled(), 0.2)];
      const whole = scoreFusion(lists, Infinity, 3_000);
      expect(whole.total).toBe(new Set(lists.flatMap((l) => l.ids)).size);
      for (const top of [1, 10, 60, 250]) {
        const part = scoreFusion(lists, top, 3_000);
        expect(part.total).toBe(whole.total);
        expect(part.items).toEqual(whole.items.slice(0, top));
      }
    }
  });
});

describe('chunkNote', () => {
  it('makes no passage of a heading with nothing under it; a note of empty headings is found by its title', () => {
    expect(chunkNote('# Plans\n\n## Empty\n\n## Budget\n\nTwelve pounds.')).toEqual([
      { heading: 'Budget', text: 'Twelve pounds.' },
    ]);
    expect(passagesOf({ title: 'Template', content: '## Attendees\n\n## Decisions\n' }).map((p) => p.embedded)).toEqual(
      ['Template'],
    );
  });

  it('cuts at headings, packs paragraphs up to the bound, and splits an over-long paragraph at sentence ends', () => {
    const long = Array.from({ length: 30 }, (_, i) => `Sentence number ${i} is here.`).join(' ');
    const chunks = chunkNote(
      `Intro line.\n\n# Alpha\n\nOne.\n\nTwo.\n\n## Beta\n\n${long}\n\n\`\`\`\n# not a heading\n\`\`\``,
      300,
    );
    expect(chunks[0]).toEqual({ heading: '', text: 'Intro line.' });
    expect(chunks[1]).toEqual({ heading: 'Alpha', text: 'One.\n\nTwo.' });
    const beta = chunks.filter((c) => c.heading === 'Beta');
    expect(beta.length).toBeGreaterThan(2);
    for (const c of beta) expect(c.text.length).toBeLessThanOrEqual(300);
    expect(beta.slice(0, -1).every((c) => c.text.endsWith('.'))).toBe(true);
    expect(chunks.some((c) => c.text.includes('# not a heading'))).toBe(true);
  });
});

describe('keyword query', () => {
  it('quotes every term, drops lone stop-words, and keeps the syntax it spells', () => {
    const parsed = parseQuery('How do I bake "sourdough bread" -rye plan* OR café');
    expect(ftsExpressions(parsed)).toEqual({ match: '("bake") AND ("sourdough bread") AND ("plan"* OR "cafe")' });
    expect(parsed.none.map((t) => t.words)).toEqual([['rye']]);
    expect(ftsExpressions(parseQuery('the'))).toEqual({ match: '"the"' });
    expect(ftsExpressions(parseQuery('(*) NEAR( "'))).toEqual({ match: '"near"' });
  });

  it('a question matches any content word and ranks passages holding all of them first', () => {
    expect(ftsExpressions(parseQuery('How do I bake sourdough bread?'))).toEqual({
      match: '"bake" OR "sourdough" OR "bread"',
      every: '("bake") AND ("sourdough") AND ("bread")',
      terms: ['"bake"', '"sourdough"', '"bread"'],
    });
  });
});
