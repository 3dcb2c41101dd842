/**
 * USE-lite on worker threads: each batch is cut into one contiguous slice per thread, so a
 * vault's first indexing uses every core while the main thread keeps serving. Each thread loads
 * its own model (≈100 MB more per thread), on its first slice. Idle threads do not keep the
 * process alive; `close()` ends them.
 */
import { Worker } from 'node:worker_threads';
import type { Embedder } from './embedder.js';
import { USE_LITE_ID } from './use-lite-embedder.js';

interface Pending {
  resolve(vectors: Float32Array[]): void;
  reject(err: Error): void;
}

/** `script` is the built `embed-worker.js` (workers run JavaScript, not the TypeScript sources). */
export function workerPoolEmbedder(script: string, threads: number): Embedder & { close(): Promise<void> } {
  const workers: Worker[] = [];
  const pending = new Map<number, Pending>();
  let seq = 0;

  const start = (): Worker[] => {
    if (workers.length) return workers;
    for (let i = 0; i < threads; i++) {
      const worker = new Worker(script);
      worker.unref();
      worker.on('message', (message: { seq: number; vectors?: Float32Array[]; error?: string }) => {
        const waiter = pending.get(message.seq);
        pending.delete(message.seq);
        if (pending.size === 0) for (const w of workers) w.unref();
        if (message.error !== undefined) waiter?.reject(new Error(`Embedding thread failed: ${message.error}`));
        else waiter?.resolve(message.vectors ?? []);
      });
      worker.on('error', (err) => {
        if (!workers.includes(worker)) return; // a thread of a pool already given up
        for (const waiter of pending.values()) waiter.reject(err);
        pending.clear();
        // The next call starts a fresh pool; the survivors of this one are ended, not leaked.
        for (const other of workers.splice(0)) if (other !== worker) void other.terminate();
      });
      workers.push(worker);
    }
    return workers;
  };

  const send = (worker: Worker, texts: string[]) =>
    new Promise<Float32Array[]>((resolve, reject) => {
      seq += 1;
      pending.set(seq, { resolve, reject });
      worker.ref(); // a slice in flight keeps the process alive until it is back
      worker.postMessage({ seq, texts });
    });

  return {
    id: USE_LITE_ID,
    dim: 512,
    async embed(texts) {
      if (texts.length === 0) return [];
      const pool = start();
      const size = Math.ceil(texts.length / pool.length);
      const slices = pool.map((_, i) => texts.slice(i * size, (i + 1) * size)).filter((slice) => slice.length);
      return (await Promise.all(slices.map((slice, i) => send(pool[i]!, slice)))).flat();
    },
    async close() {
      await Promise.all(workers.splice(0).map((w) => w.terminate()));
    },
  };
}
