/** A repeated query is embedded once (the model's ≈40 ms per query, decision 023); a failed embedding is not kept. */
import { describe, expect, it } from 'vitest';
import { QueryVectors } from '../../../toolkit/embedding/query-vectors.js';
import type { Embedder } from '../../../toolkit/embedding/embedder.js';
import { hashedEmbedder } from '../../../toolkit/embedding/hashed-embedder.js';

describe('QueryVectors', () => {
  it('embeds a sentence once while it stays among the recent ones, and retries a failure', async () => {
    const inner = hashedEmbedder();
    const seen: string[] = [];
    let fail = true;
    const embedder: Embedder = {
      id: inner.id,
      dim: inner.dim,
      embed: async (texts) => {
        seen.push(...texts);
        if (texts[0] === 'flaky' && fail) throw new Error('model not loaded');
        return inner.embed(texts);
      },
    };
    const vectors = new QueryVectors(embedder);
    const first = await vectors.of('harbour ferry');
    expect(await vectors.of('harbour ferry')).toBe(first);
    expect(seen).toEqual(['harbour ferry']);
    await expect(vectors.of('flaky')).rejects.toThrow(/not loaded/);
    fail = false;
    await expect(vectors.of('flaky')).resolves.toHaveLength(512);
    for (let i = 0; i < 300; i++) await vectors.of(`query ${i}`);
    await vectors.of('harbour ferry');
    expect(seen.filter((t) => t === 'harbour ferry')).toHaveLength(2); // pushed out by 300 newer ones
  });
});
