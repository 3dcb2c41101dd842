/**
 * The embedder contract: text in, one unit-length vector per text out. `id` names the model and
 * its version, so an index that stored vectors from another embedder (or another `dim`) knows to
 * re-embed rather than compare vectors from two different spaces.
 */
export interface Embedder {
  /** Model and version, e.g. `use-lite-512@energetic-ai-0.2.0`; stored beside the vectors. */
  readonly id: string;
  readonly dim: number;
  /** Embed calls it serves at once (its threads); a caller with much to embed keeps this many in flight. */
  readonly concurrency?: number;
  /** One vector of length `dim` per text, in input order, normalised to unit length. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  /** Releases what it holds (threads); the index that owns it calls this when it closes. */
  close?(): Promise<void>;
}

/** Scales a vector to unit length in place (a zero vector stays zero), so cosine is a dot product. */
export function normalise(vector: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < vector.length; i++) sum += vector[i]! * vector[i]!;
  if (sum === 0) return vector;
  const scale = 1 / Math.sqrt(sum);
  for (let i = 0; i < vector.length; i++) vector[i]! *= scale;
  return vector;
}

/** Splits a long list into batches so one embed call never holds every text of a vault at once. */
export async function embedInBatches(
  embedder: Embedder,
  texts: readonly string[],
  batchSize = 32,
): Promise<Float32Array[]> {
  const out: Float32Array[] = [];
  for (let start = 0; start < texts.length; start += batchSize) {
    const vectors = await embedder.embed(texts.slice(start, start + batchSize));
    if (vectors.length !== Math.min(batchSize, texts.length - start))
      throw new Error(
        `Embedder "${embedder.id}" returned ${vectors.length} vectors for ${Math.min(batchSize, texts.length - start)} texts.`,
      );
    for (const vector of vectors) {
      if (vector.length !== embedder.dim)
        throw new Error(`Embedder "${embedder.id}" returned a ${vector.length}-d vector; it declares ${embedder.dim}.`);
      out.push(normalise(vector));
    }
  }
  return out;
}
