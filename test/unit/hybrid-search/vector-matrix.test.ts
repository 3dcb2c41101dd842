import { describe, expect, it } from 'vitest';
import { dotRows } from '../../../backends/hybrid-search/dot-rows.js';
import { VectorMatrix } from '../../../backends/hybrid-search/vector-matrix.js';
import { normalise } from '../../../toolkit/embedding/embedder.js';
import { rng } from '../../support/generate-vault.js';

const randomVector = (next: () => number, dim: number) =>
  normalise(Float32Array.from({ length: dim }, () => next() - 0.5));

/** Best chunk per note by a plain loop: what rankNotes must answer. */
function reference(rows: Map<number, { noteId: string; vector: Float32Array }>, query: Float32Array, minScore: number) {
  const best = new Map<string, { noteId: string; score: number; chunkId: number }>();
  for (const [chunkId, { noteId, vector }] of rows) {
    let score = 0;
    for (let i = 0; i < query.length; i++) score += vector[i]! * query[i]!;
    if (score < minScore) continue;
    const seen = best.get(noteId);
    if (!seen || score > seen.score) best.set(noteId, { noteId, score, chunkId });
  }
  return [...best.values()].sort((a, b) => b.score - a.score || (a.noteId < b.noteId ? -1 : 1));
}

describe('VectorMatrix', () => {
  for (const dim of [512, 6]) {
    it(`ranks notes by their best chunk through adds, replacements and deletes (dim ${dim}: ${dim % 4 ? 'JavaScript' : 'WebAssembly'} scan)`, () => {
      const next = rng(dim);
      const matrix = new VectorMatrix(dim);
      const rows = new Map<number, { noteId: string; vector: Float32Array }>();
      // Past the first capacity (256 rows) twice, so the rows move through two grows.
      for (let step = 0; step < 1_500; step++) {
        const chunkId = Math.floor(next() * 900) + 1;
        if (next() < 0.25) {
          matrix.delete(chunkId);
          rows.delete(chunkId);
        } else {
          const noteId = `Note ${Math.floor(next() * 300)}.md`;
          const vector = randomVector(next, dim);
          matrix.add(chunkId, noteId, vector);
          rows.set(chunkId, { noteId, vector });
        }
        if (step % 250 === 249) {
          const query = randomVector(next, dim);
          for (const min of [-1, 0, 0.1]) {
            const got = matrix.rankNotes(query, min);
            const want = reference(rows, query, min);
            expect(got.ids.map((id, i) => [id, got.chunkIds[i]])).toEqual(want.map((s) => [s.noteId, s.chunkId]));
            got.scores.forEach((score, i) => expect(score).toBeCloseTo(want[i]!.score, 5));
          }
        }
      }
      expect(matrix.size).toBe(rows.size);
      const query = randomVector(next, dim);
      const accepted = matrix.rankNotes(query, -1, (id) => id.endsWith('7.md'));
      expect(accepted.ids).toEqual(
        reference(rows, query, -1)
          .filter((s) => s.noteId.endsWith('7.md'))
          .map((s) => s.noteId),
      );
    });
  }

  it('orders equal scores by name, and negative scores below zero and positive ones', () => {
    const matrix = new VectorMatrix(4);
    const unit = (x: number, y: number) => normalise(Float32Array.from([x, y, 0, 0]));
    // Added out of name order; notes b, d and a hold the very same passage.
    matrix.add(1, 'd.md', unit(1, 1));
    matrix.add(2, 'c.md', unit(-1, 0.2));
    matrix.add(3, 'b.md', unit(1, 1));
    matrix.add(4, 'e.md', unit(0, 1));
    matrix.add(5, 'a.md', unit(1, 1));
    matrix.add(6, 'f.md', unit(-1, -1));
    const got = matrix.rankNotes(unit(1, 0), -1);
    expect(got.ids).toEqual(['a.md', 'b.md', 'd.md', 'e.md', 'f.md', 'c.md']);
    expect(got.chunkIds).toEqual(Int32Array.from([5, 3, 1, 4, 6, 2]));
    expect(got.scores[3]).toBe(0);
  });

  it('the WebAssembly and JavaScript scans agree', () => {
    const next = rng(3);
    const simd = dotRows(8, 4);
    expect(simd.constructor.name).toBe('SimdRows');
    simd.grow(40);
    for (let i = 0; i < 40 * 8; i++) simd.data[i] = next() - 0.5;
    const query = Float32Array.from({ length: 8 }, () => next() - 0.5);
    const scores = [...simd.dots(query, 40)];
    scores.forEach((score, row) => {
      let want = 0;
      for (let i = 0; i < 8; i++) want += simd.data[row * 8 + i]! * query[i]!;
      expect(score).toBeCloseTo(want, 5);
    });
    expect(simd.dots(query, 0).length).toBe(0);
  });
});
