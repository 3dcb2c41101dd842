/**
 * The worker-thread pool without the model: stand-in worker scripts (plain JavaScript written to a
 * temp folder) answer jobs, fail them, or die; the pool spreads concurrent calls over its threads and
 * turns a failure into a rejected embed instead of a hang.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workerPoolEmbedder } from '../../../toolkit/embedding/worker-pool-embedder.js';
import { removeDir, tempDir } from '../../support/temp.js';

const ECHO = `
const { parentPort, threadId } = require('node:worker_threads');
parentPort.on('message', ({ seq, texts }) => {
  const vectors = texts.map((t) => { const v = new Float32Array(512); v[0] = Number(t); v[1] = threadId; return v; });
  parentPort.postMessage({ seq, vectors });
});`;
const FAILING = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', ({ seq }) => parentPort.postMessage({ seq, error: 'model file missing' }));`;
const DYING = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', () => { throw new Error('thread crashed'); });`;

describe('workerPoolEmbedder', () => {
  let dir: string;
  const script = (name: string) => path.join(dir, name);
  beforeAll(async () => {
    dir = await tempDir();
    await fs.writeFile(script('echo.cjs'), ECHO);
    await fs.writeFile(script('failing.cjs'), FAILING);
    await fs.writeFile(script('dying.cjs'), DYING);
  });
  afterAll(() => removeDir(dir));

  it('hands concurrent calls to free threads and returns each call its vectors in input order', async () => {
    const pool = workerPoolEmbedder(script('echo.cjs'), 2);
    try {
      expect(pool.concurrency).toBe(2);
      const calls = await Promise.all([pool.embed(['1', '2']), pool.embed(['3']), pool.embed(['4', '5'])]);
      expect(calls.map((vectors) => vectors.map((v) => v[0]))).toEqual([[1, 2], [3], [4, 5]]);
      expect(new Set(calls.flat().map((v) => v[1])).size).toBe(2);
    } finally {
      await pool.close();
    }
  });

  it('rejects when a thread reports a failure or dies, and starts afresh on the next call', async () => {
    const failing = workerPoolEmbedder(script('failing.cjs'), 1);
    await expect(failing.embed(['x'])).rejects.toThrow(/model file missing/);
    await failing.close();
    const dying = workerPoolEmbedder(script('dying.cjs'), 2);
    await expect(dying.embed(['a', 'b'])).rejects.toThrow(/thread crashed/);
    await expect(dying.embed(['c'])).rejects.toThrow(/thread crashed/);
    await dying.close();
  });
});
