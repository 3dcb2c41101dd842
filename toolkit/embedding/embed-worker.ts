/** One embedding thread: its own copy of the USE-lite model, embedding one job at a time. */
import { parentPort } from 'node:worker_threads';
import { useLiteEmbedder } from './use-lite-embedder.js';

const embedder = useLiteEmbedder();

parentPort?.on('message', (message: { texts: string[] }) => {
  embedder.embed(message.texts).then(
    (vectors) =>
      parentPort?.postMessage(
        { vectors },
        vectors.map((v) => v.buffer as ArrayBuffer),
      ),
    (err: unknown) => parentPort?.postMessage({ error: err instanceof Error ? err.message : String(err) }),
  );
});
