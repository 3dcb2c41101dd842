/**
 * A deterministic embedder for tests and model-free use: a hashed bag of content words (feature
 * hashing with a sign bit, so colliding words tend to cancel rather than add). It knows no
 * meaning, only shared words — fast (no model to load) and identical on every machine.
 */
import { createHash } from 'node:crypto';
import { normalise, type Embedder } from './embedder.js';
import { isStopWord, queryWords } from '../search/query.js';

export function hashedEmbedder(dim = 512): Embedder {
  return {
    // `-2`: the words are the kernel's query words, stop words dropped by its list.
    id: `hashed-bag-of-words-2-${dim}`,
    dim,
    async embed(texts) {
      return texts.map((text) => {
        const vector = new Float32Array(dim);
        for (const word of contentWords(text)) {
          const digest = createHash('sha1').update(word).digest();
          const bucket = digest.readUInt32LE(0) % dim;
          vector[bucket]! += (digest[4]! & 1) === 0 ? 1 : -1;
        }
        return normalise(vector);
      });
    },
  };
}

/** The words that carry content: stop words dropped, unless nothing else is left. */
function contentWords(text: string): string[] {
  const words = queryWords(text);
  const content = words.filter((w) => !isStopWord(w));
  return content.length ? content : words;
}
