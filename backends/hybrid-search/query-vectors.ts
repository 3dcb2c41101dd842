/**
 * The query's vector, remembered for the last QUERY_CACHE_SIZE query sentences. Embedding one
 * query costs the model ≈40 ms of CPU here (decision 023) — more than the rest of a search — and
 * an agent repeats queries: the next page of the same search, a retry, a refined filter.
 */
import { embedInBatches, type Embedder } from '../../toolkit/embedding/embedder.js';

const QUERY_CACHE_SIZE = 256;

export class QueryVectors {
  private readonly cache = new Map<string, Promise<Float32Array>>();

  constructor(private readonly embedder: Embedder) {}

  of(sentence: string): Promise<Float32Array> {
    const cached = this.cache.get(sentence);
    if (cached) {
      // Most recently used last: Map keeps insertion order, the oldest goes first.
      this.cache.delete(sentence);
      this.cache.set(sentence, cached);
      return cached;
    }
    const vector = embedInBatches(this.embedder, [sentence]).then(([v]) => v!);
    vector.catch(() => this.cache.delete(sentence));
    this.cache.set(sentence, vector);
    if (this.cache.size > QUERY_CACHE_SIZE) this.cache.delete(this.cache.keys().next().value!);
    return vector;
  }
}
