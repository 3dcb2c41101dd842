/**
 * USE-lite on worker threads, so a vault's first indexing runs beside the main thread, which
 * keeps serving. Each embed call is one job for the first free thread; a caller with much to
 * embed keeps `concurrency` calls in flight (backends/hybrid-search/embed-queue.ts), one per
 * thread, and two threads use both cores. Each thread loads its own model (≈100 MB more per
 * thread) on its first job. Idle threads do not keep the process alive; `close()` ends them.
 */
import { Worker } from 'node:worker_threads';
import type { Embedder } from './embedder.js';
import { USE_LITE_ID } from './use-lite-embedder.js';

interface Job {
  texts: string[];
  resolve(vectors: Float32Array[]): void;
  reject(err: Error): void;
}

interface Thread {
  worker: Worker;
  job?: Job;
}

/** `script` is the built `embed-worker.js` (workers run JavaScript, not the TypeScript sources). */
export function workerPoolEmbedder(script: string, threads: number): Embedder & { close(): Promise<void> } {
  const pool: Thread[] = [];
  const queue: Job[] = [];

  const spawn = (): Thread => {
    const thread: Thread = { worker: new Worker(script) };
    thread.worker.unref();
    thread.worker.on('message', (message: { vectors?: Float32Array[]; error?: string }) => {
      const job = thread.job;
      thread.job = undefined;
      thread.worker.unref();
      if (message.error !== undefined) job?.reject(new Error(`Embedding thread failed: ${message.error}`));
      else job?.resolve(message.vectors ?? []);
      dispatch();
    });
    thread.worker.on('error', (err) => {
      // This thread is gone: its job fails, a fresh thread takes its place for the next one.
      const at = pool.indexOf(thread);
      if (at < 0) return;
      pool.splice(at, 1);
      thread.job?.reject(err);
      dispatch();
    });
    return thread;
  };

  const dispatch = () => {
    while (queue.length) {
      let thread = pool.find((t) => t.job === undefined);
      if (!thread && pool.length < threads) {
        thread = spawn();
        pool.push(thread);
      }
      if (!thread) return;
      const job = queue.shift()!;
      thread.job = job;
      thread.worker.ref(); // a job in flight keeps the process alive until it is back
      thread.worker.postMessage({ texts: job.texts });
    }
  };

  return {
    id: USE_LITE_ID,
    dim: 512,
    concurrency: threads,
    embed(texts) {
      if (texts.length === 0) return Promise.resolve([]);
      return new Promise((resolve, reject) => {
        queue.push({ texts: [...texts], resolve, reject });
        dispatch();
      });
    },
    async close() {
      const closed = new Error('The embedder was closed.');
      for (const job of queue.splice(0)) job.reject(closed);
      const threads = pool.splice(0);
      for (const t of threads) t.job?.reject(closed);
      await Promise.all(threads.map((t) => t.worker.terminate()));
    },
  };
}
