/**
 * Measures the simplenote backend against the fake Simperium server on loopback: full sync at
 * open (notes/s, pages of 100), an idle delta refresh, cache search latency and the cache file.
 * `npm run build && node dist/test/bench/simplenote-sync.js [notes...]` (default 1000 10000).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { silentLogger } from '../../kernel/logger.js';
import { simplenoteBackendWith, simplenoteOptions } from '../../backends/simplenote/index.js';
import { startFakeSimperium } from '../support/fake-simperium/index.js';

const WORDS = 'kestrel heron osprey budget launch review archive café crème tasting plan meeting garden river stone winter summer project draft idea letter travel recipe bread coffee market'.split(' ');

function text(i: number): string {
  const words = Array.from({ length: 60 }, (_, j) => WORDS[(i * 7 + j * 13 + ((i * j) % 11)) % WORDS.length]);
  return `Note ${i} ${WORDS[i % WORDS.length]}\n${words.join(' ')} ref${i}\n`;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function bench(count: number): Promise<void> {
  const fake = await startFakeSimperium();
  for (let i = 0; i < count; i += 1) {
    const t = 1700000000 + i;
    fake.bucket().post(`n${i}`, { content: text(i), tags: [WORDS[i % 5]!], systemTags: [], creationDate: t, modificationDate: t, deleted: false, shareURL: '', publishURL: '' });
  }
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'nk-bench-simplenote-'));
  const env = { SIMPERIUM_AUTH_URL: fake.url, SIMPERIUM_API_URL: fake.url, SIMPERIUM_API_KEY: fake.apiKey, SIMPLENOTE_USERNAME: 'user@example.com', SIMPLENOTE_PASSWORD: 'secret-password' };
  const definition = simplenoteBackendWith({ env });
  const started = performance.now();
  const instance = await definition.create({ folder, options: simplenoteOptions.parse({ syncIntervalSeconds: 0 }), logger: silentLogger(), readOnly: false });
  const fullMs = performance.now() - started;
  const store = instance.store!;
  const refreshStarted = performance.now();
  await store.refresh();
  const refreshMs = performance.now() - refreshStarted;
  const latencies: number[] = [];
  for (let i = 0; i < 200; i += 1) {
    const query = i % 2 ? `${WORDS[i % WORDS.length]} ${WORDS[(i * 3) % WORDS.length]}` : `${WORDS[i % WORDS.length]!.slice(0, 3)}*`;
    const t = performance.now();
    await instance.search!.search({ text: query, limit: 20 });
    latencies.push(performance.now() - t);
  }
  latencies.sort((a, b) => a - b);
  // Selective: one note matches (a unique word), as most real searches narrow quickly.
  const selective: number[] = [];
  for (let i = 0; i < 200; i += 1) {
    const t = performance.now();
    await instance.search!.search({ text: `ref${(i * 37) % count}`, limit: 20 });
    selective.push(performance.now() - t);
  }
  selective.sort((a, b) => a - b);
  const listStarted = performance.now();
  await store.list({ limit: 50 });
  const listMs = performance.now() - listStarted;
  const closeStarted = performance.now();
  await store.close();
  const closeMs = performance.now() - closeStarted;
  const file = fs.readdirSync(folder).find((f) => f.endsWith('.sqlite3'))!;
  const size = fs.statSync(path.join(folder, file)).size;
  console.log(
    `${count} notes: full sync ${fullMs.toFixed(0)} ms (${((count / fullMs) * 1000).toFixed(0)} notes/s, ${Math.ceil(count / 100)} pages); idle refresh ${refreshMs.toFixed(0)} ms; ` +
      `search (most notes match) p50 ${percentile(latencies, 50).toFixed(2)} ms p95 ${percentile(latencies, 95).toFixed(2)} ms; ` +
      `search (one match) p50 ${percentile(selective, 50).toFixed(2)} ms p95 ${percentile(selective, 95).toFixed(2)} ms; list 50 ${listMs.toFixed(1)} ms; close+save ${closeMs.toFixed(0)} ms; cache ${(size / 1e6).toFixed(1)} MB`,
  );
  await fake.stop();
  fs.rmSync(folder, { recursive: true, force: true });
}

const counts = process.argv.slice(2).map(Number).filter((n) => n > 0);
for (const count of counts.length ? counts : [1000, 10000]) await bench(count);
