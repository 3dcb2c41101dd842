/**
 * The query's vector, remembered for the last QUERY_CACHE_SIZE query sentences. Embedding one
 * query costs the model ≈40 ms of CPU here (decision 023) — more than the rest of a search — and
 * an agent repeats queries: the next page of the same search, a retry, a refined filter.
 *
 * A query the embedder could not embed (an endpoint down, a model that failed to load) rejects
 * with `QueryEmbeddingError`, and `searchOrKeywords` turns that into a keyword answer with a
 * notice: a failing embedder never fails a search (decision 036).
 */
import type { SearchPage, SearchQuery } from '../../kernel/index.js';
import { embedInBatches, type Embedder } from './embedder.js';

const QUERY_CACHE_SIZE = 256;

/** The query could not be embedded; `reason` is the embedder's own message. */
export class QueryEmbeddingError extends Error {
  constructor(
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`The query could not be embedded: ${reason}`, options);
    this.name = 'QueryEmbeddingError';
  }
}

export class QueryVectors {
  private readonly cache = new Map<string, Promise<Float32Array>>();

  constructor(private readonly embedder: Embedder) {}

  /** The sentence's unit vector; rejects with `QueryEmbeddingError` when the embedder fails (not cached: the next call tries again). */
  of(sentence: string): Promise<Float32Array> {
    const cached = this.cache.get(sentence);
    if (cached) {
      // Most recently used last: Map keeps insertion order, the oldest goes first.
      this.cache.delete(sentence);
      this.cache.set(sentence, cached);
      return cached;
    }
    const vector = embedInBatches(this.embedder, [sentence]).then(
      ([v]) => v!,
      (err: unknown) => {
        throw new QueryEmbeddingError(err instanceof Error ? err.message : String(err), { cause: err });
      },
    );
    vector.catch(() => this.cache.delete(sentence));
    this.cache.set(sentence, vector);
    if (this.cache.size > QUERY_CACHE_SIZE) this.cache.delete(this.cache.keys().next().value!);
    return vector;
  }
}

/**
 * Runs a search; when it fails because the query could not be embedded, runs the same query by
 * keyword instead and says why (`embedderDown`, the embedder's reason). Any other failure is the
 * caller's.
 */
export async function searchOrKeywords(
  query: SearchQuery,
  search: (query: SearchQuery) => Promise<SearchPage>,
): Promise<{ page: SearchPage; embedderDown?: string }> {
  try {
    return { page: await search(query) };
  } catch (err) {
    if (!(err instanceof QueryEmbeddingError)) throw err;
    return { page: await search({ ...query, mode: 'keyword' }), embedderDown: err.reason };
  }
}

/** The notice of a page answered by keyword because the query could not be embedded. */
export function embedderDownNotice(reason: string): string {
  return `Search by meaning is unavailable (${reason.replace(/\.$/, '')}): these are keyword matches only.`;
}
