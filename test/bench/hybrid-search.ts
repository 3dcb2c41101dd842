/**
 * Measures the hybrid-search engine (decision 018): the full cosine scan at N chunks × 512-d
 * (random unit vectors), the USE-lite model's load time and memory, and its embedding throughput
 * on note-sized passages. Run after `npm run build`:
 *   node dist/test/bench/hybrid-search.js   (HYBRID_BENCH_CHUNKS, default 10000; HYBRID_BENCH_PASSAGES, default 96)
 * Under `unshare -n` it also shows the model needs no network.
 */
import { HybridSearchIndex } from '../../backends/hybrid-search/hybrid-index.js';
import { VectorMatrix } from '../../backends/hybrid-search/vector-matrix.js';
import type { Note, ReconcileSource } from '../../kernel/index.js';
import { embedInBatches, normalise } from '../../toolkit/embedding/embedder.js';
import { useLiteEmbedder } from '../../toolkit/embedding/use-lite-embedder.js';
import { workerPoolEmbedder } from '../../toolkit/embedding/worker-pool-embedder.js';
import { packageRoot } from '../../kernel/package-root.js';
import path from 'node:path';

const DIM = 512;

function randomUnit(seed: number): Float32Array {
  // A small LCG: the same vectors on every run.
  const v = new Float32Array(DIM);
  let x = seed * 2654435761 + 1;
  for (let i = 0; i < DIM; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    v[i] = x / 1073741824 - 1;
  }
  return normalise(v);
}

/** The longest stretch the event loop went without running a 10 ms timer (what a server's clients would wait). */
function loopGaps(): () => number {
  let last = performance.now();
  let worst = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last);
    last = now;
  }, 10);
  return () => {
    clearInterval(timer);
    return Math.max(worst, performance.now() - last);
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

function benchScan(chunks: number): void {
  const matrix = new VectorMatrix(DIM);
  for (let i = 0; i < chunks; i++) matrix.add(i, `note-${Math.floor(i / 2)}`, randomUnit(i));
  const query = randomUnit(-7);
  // A threshold of 2 keeps nothing: the time of the scan alone; -1 keeps every note (ranking and sorting all).
  for (const minScore of [2, 0.25, -1]) {
    const times: number[] = [];
    // CPU time as well as wall time: on a shared machine the wall clock counts other processes' turns.
    const cpu = process.cpuUsage();
    for (let run = 0; run < 40; run++) {
      const started = performance.now();
      matrix.rankNotes(query, minScore);
      times.push(performance.now() - started);
    }
    const cpuMs = process.cpuUsage(cpu).user / 1000 / 40;
    console.log(`scan ${chunks} chunks x ${DIM}-d, min similarity ${minScore}: wall median ${median(times).toFixed(2)} ms, min ${Math.min(...times).toFixed(2)} ms; CPU ${cpuMs.toFixed(2)} ms per scan`);
  }
}

const PASSAGE =
  'The committee reviewed the quarterly budget and decided to postpone the bridge repairs until the spring, citing the cost of steel and the shortage of qualified welders. ' +
  'Residents asked for a temporary footpath; the engineer promised a plan by the next meeting, with a timetable for the closures and a route for the buses.';

async function benchModel(passages: number): Promise<void> {
  const rss = process.memoryUsage().rss;
  const embedder = useLiteEmbedder();
  let started = performance.now();
  await embedder.embed(['load the model']);
  console.log(`model load + first embed: ${Math.round(performance.now() - started)} ms, RSS ${Math.round(rss / 1e6)} -> ${Math.round(process.memoryUsage().rss / 1e6)} MB`);
  const texts = Array.from({ length: passages }, (_, i) => `${i}. ${PASSAGE}`);
  const gaps = loopGaps();
  started = performance.now();
  await embedInBatches(embedder, texts);
  const seconds = (performance.now() - started) / 1000;
  const blocked = gaps();
  console.log(`embed ${passages} passages of ${PASSAGE.length} chars on the main thread: ${(passages / seconds).toFixed(1)} chunks/s, RSS ${Math.round(process.memoryUsage().rss / 1e6)} MB, event loop blocked up to ${Math.round(blocked)} ms`);
}

async function benchThreads(passages: number): Promise<void> {
  const script = path.join(packageRoot(), 'dist', 'toolkit', 'embedding', 'embed-worker.js');
  const texts = Array.from({ length: passages }, (_, i) => `${i}. ${PASSAGE}`);
  for (const threads of [1, 2]) {
    const pool = workerPoolEmbedder(script, threads);
    const rss = process.memoryUsage().rss;
    let started = performance.now();
    await pool.embed(Array.from({ length: threads }, () => 'load the model'));
    const loadMs = performance.now() - started;
    const gaps = loopGaps();
    started = performance.now();
    await embedInBatches(pool, texts);
    const seconds = (performance.now() - started) / 1000;
    const blocked = gaps();
    console.log(
      `embed ${passages} passages on ${threads} worker thread(s): ${(passages / seconds).toFixed(1)} chunks/s (load ${Math.round(loadMs)} ms, process RSS +${Math.round((process.memoryUsage().rss - rss) / 1e6)} MB), event loop blocked up to ${Math.round(blocked)} ms`,
    );
    await pool.close();
  }
}

/** A first reconcile of a vault of short notes (one chunk each), the model on 1 and 2 threads. */
async function benchReconcile(noteCount: number): Promise<void> {
  const script = path.join(packageRoot(), 'dist', 'toolkit', 'embedding', 'embed-worker.js');
  const notes: Note[] = Array.from({ length: noteCount }, (_, i) => ({
    id: `n${i}`,
    title: `Meeting ${i}`,
    content: `${i}. ${PASSAGE}`,
    tags: [],
    metadata: {},
    created: '2026-01-01T00:00:00.000Z',
    updated: '2026-01-01T00:00:00.000Z',
    contentHash: `h${i}`,
  }));
  const source: ReconcileSource = { list: async () => notes, get: async (id) => notes.find((n) => n.id === id) };
  for (const threads of [1, 2]) {
    const embedder = workerPoolEmbedder(script, threads);
    await embedder.embed(Array.from({ length: threads }, () => 'load the model'));
    const index = new HybridSearchIndex({ file: ':memory:', embedder });
    const started = performance.now();
    await index.reconcile(source);
    const seconds = (performance.now() - started) / 1000;
    console.log(`reconcile ${noteCount} new notes on ${threads} worker thread(s): ${(index.stats().embedded / seconds).toFixed(1)} chunks/s`);
    await index.close();
  }
}

const chunks = Number.parseInt(process.env.HYBRID_BENCH_CHUNKS ?? '10000', 10);
benchScan(chunks);
const passages = Number.parseInt(process.env.HYBRID_BENCH_PASSAGES ?? '96', 10);
if (passages > 0) await benchModel(passages);
if (passages > 0 && process.env.HYBRID_BENCH_THREADS !== '0') {
  await benchThreads(passages);
  await benchReconcile(passages);
}
