/**
 * The semantic leg's hot loop — every passage vector's dot product with a query — by our
 * WebAssembly SIMD scan (`dot-rows.ts`), our JavaScript loop, and the npm libraries that could do
 * it instead (decision 032, "Libraries tried"). The libraries are not dependencies: their rows run
 * only where they can be loaded, from the project's node_modules or from the folder named by
 * VECTOR_SCAN_LIBS (one with `npm install simsimd usearch` done in it); a missing one is a row
 * saying so. Same data for every row: VECTOR_SCAN_ROWS (13,334) random unit vectors × 512-d,
 * 50 random unit queries.
 *
 * `npm run build && VECTOR_SCAN_LIBS=<folder> node dist/test/bench/vector-scan.js`
 */
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { dotRows } from '../../backends/hybrid-search/dot-rows.js';
import { rng } from '../support/generate-vault.js';
import { fmt, percentile, printTable, type BenchRow } from './stats.js';

const DIM = 512;
const QUERIES = 50;

interface Scan {
  name: string;
  /** Takes the rows; returns the per-query function giving all dot products (or the top k). */
  load(rows: Float32Array, count: number): (query: Float32Array) => ArrayLike<number> | undefined;
  /** Not every dot product: what the figures mean instead. */
  note?: string;
}

interface Measured {
  name: string;
  loadMs: number;
  p50: number;
  p95: number;
  cpu: number;
  /** Largest difference from the JavaScript loop's scores, or a recall figure. */
  check: string;
}

function unitVectors(count: number, random: () => number): Float32Array {
  const out = new Float32Array(count * DIM);
  for (let r = 0; r < count; r++) {
    let norm = 0;
    for (let i = 0; i < DIM; i++) {
      const v = random() * 2 - 1;
      out[r * DIM + i] = v;
      norm += v * v;
    }
    const scale = 1 / Math.sqrt(norm);
    for (let i = 0; i < DIM; i++) out[r * DIM + i]! *= scale;
  }
  return out;
}

function ours(script: boolean): Scan {
  return {
    name: script ? 'JavaScript loop (dot-rows, script)' : 'WebAssembly SIMD (dot-rows)',
    load(rows, count) {
      // As VectorMatrix fills it: one row at a time into a store grown by doubling.
      const store = dotRows(DIM, 256, { script });
      for (let r = 0; r < count; r++) {
        if (r === store.capacity) store.grow(store.capacity * 2);
        store.data.set(rows.subarray(r * DIM, (r + 1) * DIM), r * DIM);
      }
      return (query) => store.dots(query, count);
    },
  };
}

/** A library from node_modules, else from VECTOR_SCAN_LIBS; undefined when neither has it. */
function library(name: string): unknown {
  const places = [path.join(process.cwd(), 'package.json')];
  if (process.env.VECTOR_SCAN_LIBS)
    places.unshift(path.join(path.resolve(process.env.VECTOR_SCAN_LIBS), 'package.json'));
  for (const place of places) {
    try {
      return createRequire(place)(name);
    } catch {
      // Not there: try the next place.
    }
  }
  return undefined;
}

type SimsimdDot = (a: Float32Array, b: Float32Array) => number;

function simsimd(fn: 'dot' | 'inner'): Scan | string {
  const lib = library('simsimd') as Record<string, SimsimdDot> | undefined;
  if (!lib) return `simsimd.${fn}: not installed`;
  const dot = lib[fn]!;
  return {
    name: `simsimd.${fn}, one call per row`,
    load(rows, count) {
      const data = rows.slice(0, count * DIM);
      const views = Array.from({ length: count }, (_, r) => data.subarray(r * DIM, (r + 1) * DIM));
      const out = new Float32Array(count);
      return (query) => {
        for (let r = 0; r < count; r++) out[r] = dot(views[r]!, query);
        return out;
      };
    },
  };
}

interface UsearchMatches {
  keys: BigUint64Array;
  distances: Float32Array;
}
interface UsearchLib {
  exactSearch(
    dataset: Float32Array,
    queries: Float32Array,
    dims: number,
    count: number,
    metric: string,
    threads?: number,
  ): UsearchMatches;
  Index: new (config: {
    dimensions: number;
    metric: string;
    connectivity?: number;
    expansion_add?: number;
    expansion_search?: number;
  }) => {
    add(keys: BigUint64Array, vectors: Float32Array, threads?: number): void;
    search(vector: Float32Array, k: number, threads: number): UsearchMatches;
  };
}

/** usearch answers distances (1 − dot for `ip`) by key, best first: back to scores by row. */
function scoresByRow(matches: UsearchMatches, count: number, out: Float32Array): Float32Array {
  out.fill(Number.NaN);
  for (let i = 0; i < matches.keys.length && i < count; i++) out[Number(matches.keys[i]!)] = 1 - matches.distances[i]!;
  return out;
}

function usearchExact(threads: number): Scan | string {
  const lib = library('usearch') as UsearchLib | undefined;
  if (!lib) return 'usearch.exactSearch: not installed';
  return {
    name: `usearch.exactSearch, every row, ${threads} thread${threads > 1 ? 's' : ''}`,
    load(rows, count) {
      const data = rows.slice(0, count * DIM);
      const out = new Float32Array(count);
      const own = new Float32Array(DIM);
      return (query) => {
        own.set(query); // usearch reads a subarray from its buffer's start, not its byteOffset
        return scoresByRow(lib.exactSearch(data, own, DIM, count, 'ip', threads), count, out);
      };
    },
  };
}

function usearchHnsw(k: number, expansion?: number): Scan | string {
  const lib = library('usearch') as UsearchLib | undefined;
  if (!lib) return 'usearch HNSW: not installed';
  return {
    name: `usearch HNSW (${expansion ? `expansion_search ${expansion}` : 'defaults'}), top ${k}`,
    note: 'top k only; check is recall against the exact top k',
    load(rows, count) {
      const index = new lib.Index({
        dimensions: DIM,
        metric: 'ip',
        ...(expansion ? { expansion_search: expansion } : {}),
      });
      const keys = BigUint64Array.from({ length: count }, (_, i) => BigInt(i));
      index.add(keys, rows.slice(0, count * DIM), 1);
      const own = new Float32Array(DIM);
      return (query) => {
        own.set(query);
        const found = index.search(own, k, 1);
        return Array.from(found.keys, Number);
      };
    },
  };
}

function measure(
  scan: Scan,
  rows: Float32Array,
  count: number,
  queries: Float32Array,
  reference: Float32Array[],
): Measured {
  const start = performance.now();
  const run = scan.load(rows, count);
  const loadMs = performance.now() - start;
  const query = (q: number) => queries.subarray(q * DIM, (q + 1) * DIM);
  for (let q = 0; q < 5; q++) run(query(q)); // warm-up
  const times: number[] = [];
  const results: (ArrayLike<number> | undefined)[] = [];
  const cpuStart = process.cpuUsage();
  for (let q = 0; q < QUERIES; q++) {
    const t = performance.now();
    const result = run(query(q));
    times.push(performance.now() - t);
    results.push(scan.note ? result : Float32Array.from(result ?? []));
  }
  const used = process.cpuUsage(cpuStart);
  return {
    name: scan.name,
    loadMs,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    cpu: (used.user + used.system) / 1000 / QUERIES,
    check: scan.note ? recall(results, reference) : largestDifference(results, reference),
  };
}

function largestDifference(results: (ArrayLike<number> | undefined)[], reference: Float32Array[]): string {
  let worst = 0;
  results.forEach((scores, q) => {
    for (let r = 0; r < reference[q]!.length; r++)
      worst = Math.max(worst, Math.abs((scores?.[r] ?? Infinity) - reference[q]![r]!));
  });
  return `max |Δ| ${worst.toExponential(1)}`;
}

function recall(results: (ArrayLike<number> | undefined)[], reference: Float32Array[]): string {
  let hits = 0;
  let total = 0;
  results.forEach((found, q) => {
    const k = found?.length ?? 0;
    const exact = new Set(
      Array.from(reference[q]!.keys())
        .sort((a, b) => reference[q]![b]! - reference[q]![a]!)
        .slice(0, k),
    );
    for (let i = 0; i < k; i++) if (exact.has(found![i]!)) hits += 1;
    total += k;
  });
  return `recall ${((100 * hits) / Math.max(1, total)).toFixed(1)} %`;
}

export async function benchVectorScan(): Promise<BenchRow[]> {
  const count = Number.parseInt(process.env.VECTOR_SCAN_ROWS ?? '13334', 10);
  const random = rng(32);
  const rows = unitVectors(count, random);
  const queries = unitVectors(QUERIES, random);
  console.log(
    `vector-scan bench: ${count} rows × ${DIM}-d, ${QUERIES} queries, load average ${os.loadavg()[0]!.toFixed(1)}`,
  );

  const script = ours(true);
  const run = script.load(rows, count);
  const reference = Array.from({ length: QUERIES }, (_, q) =>
    Float32Array.from(run(queries.subarray(q * DIM, (q + 1) * DIM))!),
  );

  const scans = [
    ours(false),
    script,
    simsimd('dot'),
    simsimd('inner'),
    usearchExact(1),
    usearchExact(os.availableParallelism()),
    usearchHnsw(200),
    usearchHnsw(200, 800),
  ];
  const measured: Measured[] = [];
  const rowsOut: BenchRow[] = [];
  for (const scan of scans) {
    if (typeof scan === 'string') {
      if (rowsOut.some((row) => row.bench === scan)) continue;
      rowsOut.push({ bench: scan, value: '-', target: '-', baseline: '-', ratio: '-', pass: true });
      continue;
    }
    measured.push(measure(scan, rows, count, queries, reference));
  }
  const wasm = measured[0]!;
  for (const m of measured) {
    rowsOut.push({
      bench: `${m.name}: p50 / p95 per query (CPU); load (${m.check})`,
      value: `${fmt(m.p50)} / ${fmt(m.p95)} (${fmt(m.cpu)}); load ${fmt(m.loadMs)}`,
      target: '-',
      baseline: `WebAssembly p50 ${fmt(wasm.p50)}`,
      ratio: `${(m.p50 / wasm.p50).toFixed(2)}×`,
      pass: true,
    });
  }
  console.log(`load average at end: ${os.loadavg()[0]!.toFixed(1)}`);
  return rowsOut;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) printTable(await benchVectorScan());
