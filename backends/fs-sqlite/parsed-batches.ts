/**
 * Yields changed files parsed, batch by batch. A large cold index hands the parsing (read,
 * decode, YAML, hash) to a worker thread so it overlaps with the SQLite writes on the main
 * thread: on two cores that is most of the parse time saved. Small refreshes parse inline.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Logger } from '../../kernel/logger.js';
import { packageRoot } from '../../toolkit/package-root.js';
import { parseChangedFile, type ChangedFile, type ParsedFile } from './parse-file.js';

const WORKER_THRESHOLD = 1000;
/**
 * Batches handed to the worker ahead of the writer. Parsed notes wait in memory until written;
 * posting every batch at once let a 100,000-note index hold most of the vault's text at once
 * (0.9 GB peak). Two ahead keep the worker busy while the writer works on the third.
 */
const AHEAD = 2;
// Built to dist/ only; sources under a test runner use it once built, or parse inline.
const WORKER_SCRIPT = path.join(packageRoot(), 'dist', 'backends', 'fs-sqlite', 'parse-worker.js');

export async function* parsedBatches(
  changed: ChangedFile[],
  batchSize: number,
  logger: Logger,
): AsyncGenerator<ParsedFile[]> {
  const batches: ChangedFile[][] = [];
  for (let i = 0; i < changed.length; i += batchSize) batches.push(changed.slice(i, i + batchSize));
  if (changed.length < WORKER_THRESHOLD || !fs.existsSync(WORKER_SCRIPT)) {
    for (const batch of batches) yield batch.map(parseChangedFile);
    return;
  }
  const worker = new Worker(WORKER_SCRIPT);
  const results = new Map<number, ParsedFile[]>();
  const waiting = new Map<number, (parsed: ParsedFile[]) => void>();
  let failure: Error | undefined;
  worker.on('message', ({ seq, parsed }: { seq: number; parsed: ParsedFile[] }) => {
    const resolve = waiting.get(seq);
    if (resolve) {
      waiting.delete(seq);
      resolve(parsed);
    } else results.set(seq, parsed);
  });
  worker.on('error', (err) => {
    failure = err;
    logger.warn({ err }, 'parse worker failed; parsing the rest inline');
    for (const [seq, resolve] of waiting) resolve((batches[seq] ?? []).map(parseChangedFile));
    waiting.clear();
  });
  let posted = 0;
  const postUpTo = (limit: number): void => {
    if (failure) return;
    for (; posted < Math.min(limit, batches.length); posted++)
      worker.postMessage({ seq: posted, files: batches[posted] });
  };
  postUpTo(AHEAD + 1);
  try {
    for (let seq = 0; seq < batches.length; seq++) {
      postUpTo(seq + AHEAD + 1);
      const ready = results.get(seq);
      if (ready) {
        results.delete(seq);
        yield ready;
      } else if (failure) {
        yield (batches[seq] ?? []).map(parseChangedFile);
      } else {
        yield await new Promise<ParsedFile[]>((resolve) => waiting.set(seq, resolve));
      }
    }
  } finally {
    await worker.terminate();
  }
}
