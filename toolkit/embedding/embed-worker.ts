/** One embedding thread: its own copy of the USE-lite model, embedding the slices it is sent. */
import { parentPort } from 'node:worker_threads';
import { useLiteEmbedder } from './use-lite-embedder.js';

const embedder = useLiteEmbedder();

parentPort?.on('message', (message: { seq: number; texts: string[] }) => {
  embedder.embed(message.texts).then(
    (vectors) => parentPort?.postMessage({ seq: message.seq, vectors }, vectors.map((v) => v.buffer as ArrayBuffer)),
    (err: unknown) => parentPort?.postMessage({ seq: message.seq, error: err instanceof Error ? err.message : String(err) }),
  );
});
