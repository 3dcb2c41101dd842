/**
 * Measures the simplenote backend and the notarium tools against the fake Simperium server on
 * loopback, each beside a baseline from the same run:
 *  - full sync at open (pages of 100) vs a bare loop of HTTP GETs fetching the same notes
 *    (the same index pages with data, parsed and dropped; and one GET per note);
 *  - seed 003's `list` tool (through the kernel) with a text query: p50 / p95, one match and
 *    broad matches, vs the bare FTS4 MATCH on the same sql.js cache;
 *  - persisting the cache (export, temp file, fsync, rename) vs a plain write of the same bytes.
 * `npm run build && node dist/test/bench/simplenote-sync.js [notes...]` (default 10000);
 * `npm run bench` includes it with BENCH_ONLY=simplenote (or all groups).
 */
import { stemWord } from '../../backends/simplenote/cache/stem.js';
import { foldLetters } from '../../toolkit/search/fold-letters.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createKernel } from '../../app/config/assemble.js';
import { silentLogger } from '../../kernel/logger.js';
import { simplenoteBackendWith } from '../../backends/simplenote/index.js';
import { openCacheDatabase, saveCacheDatabase } from '../../backends/simplenote/cache/cache-file.js';
import { simplenoteToolsPlugin } from '../../plugins/simplenote-tools/index.js';
import { notariumProfile } from '../../profiles/notarium/index.js';
import { startFakeSimperium, type FakeSimperium } from '../support/fake-simperium/index.js';
import { fmt, percentile, sample, time, type BenchRow } from './stats.js';

const WORDS =
  'kestrel heron osprey budget launch review archive café crème tasting plan meeting garden river stone winter summer project draft idea letter travel recipe bread coffee market'.split(
    ' ',
  );

function text(i: number): string {
  const words = Array.from({ length: 60 }, (_, j) => WORDS[(i * 7 + j * 13 + ((i * j) % 11)) % WORDS.length]);
  return `Note ${i} ${WORDS[i % WORDS.length]}\n${words.join(' ')} ref${i}\n`;
}

function seed(fake: FakeSimperium, count: number): void {
  for (let i = 0; i < count; i += 1) {
    const t = 1700000000 + i;
    fake.bucket().post(`n${i}`, {
      content: text(i),
      tags: [WORDS[i % 5]!],
      systemTags: [],
      creationDate: t,
      modificationDate: t,
      deleted: false,
      shareURL: '',
      publishURL: '',
    });
  }
}

/** The same notes by plain HTTP: a token, then index pages of 100 with data, parsed and dropped. */
async function bareIndexLoop(fake: FakeSimperium): Promise<number> {
  const token = await bareToken(fake);
  let fetched = 0;
  let mark: string | undefined;
  do {
    const res = await fetch(`${fake.url}/1/${fake.appId}/note/index?limit=100&data=1${mark ? `&mark=${mark}` : ''}`, {
      headers: { 'X-Simperium-Token': token },
    });
    const page = (await res.json()) as { index: unknown[]; mark?: string };
    fetched += page.index.length;
    mark = page.mark;
  } while (mark);
  return fetched;
}

/** One GET per note, as a client without index paging would. */
async function bareGetLoop(fake: FakeSimperium, count: number): Promise<number> {
  const token = await bareToken(fake);
  let fetched = 0;
  for (let i = 0; i < count; i += 1) {
    const res = await fetch(`${fake.url}/1/${fake.appId}/note/i/n${i}`, { headers: { 'X-Simperium-Token': token } });
    await res.json();
    fetched += 1;
  }
  return fetched;
}

async function bareToken(fake: FakeSimperium): Promise<string> {
  const res = await fetch(`${fake.url}/1/${fake.appId}/authorize/`, {
    method: 'POST',
    headers: { 'X-Simperium-API-Key': fake.apiKey, 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'user@example.com', password: 'secret-password' }),
  });
  return ((await res.json()) as { access_token: string }).access_token;
}

export async function benchSimplenote(count = 10_000): Promise<BenchRow[]> {
  const fake = await startFakeSimperium();
  seed(fake, count);
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'nk-bench-simplenote-'));
  const env = {
    SIMPERIUM_AUTH_URL: fake.url,
    SIMPERIUM_API_URL: fake.url,
    SIMPERIUM_API_KEY: fake.apiKey,
    SIMPLENOTE_USERNAME: 'user@example.com',
    SIMPLENOTE_PASSWORD: 'secret-password',
  };
  const rows: BenchRow[] = [];
  try {
    // Baselines first and last around the sync, so a warming machine favours neither side.
    const pagesBefore = await time(() => bareIndexLoop(fake));
    const kernel = await createKernel({
      profile: 'notarium',
      config: { storage: { backend: 'simplenote', options: { firstSync: 'at-open', syncIntervalSeconds: 0 } } },
      catalogue: {
        profiles: [notariumProfile],
        plugins: [simplenoteToolsPlugin],
        backends: [simplenoteBackendWith({ env })],
      },
      logger: silentLogger(),
    });
    const sync = await time(() => kernel.openVault(folder));
    const vault = sync.value;
    const pagesAfter = await time(() => bareIndexLoop(fake));
    const pagesMs = Math.min(pagesBefore.ms, pagesAfter.ms);
    const gets = await time(() => bareGetLoop(fake, count));
    const notesPerSecond = (count / sync.ms) * 1000;
    rows.push({
      bench: `notarium full sync, ${count} notes (fake Simperium, loopback)`,
      value: `${fmt(sync.ms)} (${notesPerSecond.toFixed(0)} notes/s)`,
      target: '(reported)',
      baseline: `bare GET loop: index pages ${fmt(pagesMs)}; one GET per note ${fmt(gets.ms)}`,
      ratio: `${(sync.ms / pagesMs).toFixed(2)}× pages; ${(sync.ms / gets.ms).toFixed(2)}× per-note GETs`,
      pass: true,
    });

    rows.push(stemmingRow(count, sync.ms));

    const list = (query: string) => vault.call('list', { query, limit: 20 });
    const selective = await sample(200, (i) => list(`ref${(i * 37) % count}`));
    const broad = await sample(100, (i) =>
      list(`${WORDS[i % WORDS.length]} ${WORDS[(i * 3) % WORDS.length]} tag:${WORDS[i % 5]}`),
    );
    // The bare query under the tool: FTS4 MATCH on the same cache, ids only.
    const { db } = await openCacheDatabase(
      path.join(folder, fs.readdirSync(folder).find((f) => f.endsWith('.sqlite3'))!),
      silentLogger(),
    );
    const statement = db.prepare('SELECT rowid FROM notes_fts WHERE notes_fts MATCH ? LIMIT 20');
    const bare = await sample(200, (i) => {
      statement.bind([`ref${(i * 37) % count}`]);
      while (statement.step()) statement.get();
      statement.reset();
    });
    statement.free();
    rows.push({
      bench: `notarium list, text query, ${count} notes (one match)`,
      value: `p50 ${fmt(percentile(selective, 50))} p95 ${fmt(percentile(selective, 95))}`,
      target: 'p50 ≤ 5 ms',
      baseline: `bare FTS4 MATCH p50 ${fmt(percentile(bare, 50))}`,
      ratio: `${(percentile(selective, 50) / percentile(bare, 50)).toFixed(1)}×`,
      pass: percentile(selective, 50) <= 5,
    });
    rows.push({
      bench: `notarium list, text query + tag:, ${count} notes (most notes match)`,
      value: `p50 ${fmt(percentile(broad, 50))} p95 ${fmt(percentile(broad, 95))}`,
      target: '(reported)',
      baseline: `bare FTS4 MATCH p50 ${fmt(percentile(bare, 50))}`,
      ratio: `${(percentile(broad, 50) / percentile(bare, 50)).toFixed(0)}×`,
      pass: true,
    });

    // Persist: what the backend does after writes and at close, beside a plain write of the same bytes.
    const file = path.join(folder, 'persist-bench.sqlite3');
    const persist = await sample(5, () => saveCacheDatabase(db, file));
    const bytes = db.export();
    const plain = await sample(5, () => fs.writeFileSync(path.join(folder, 'plain.bin'), bytes));
    db.close();
    rows.push({
      bench: `notarium cache persist, ${count} notes (${(bytes.byteLength / 1e6).toFixed(1)} MB)`,
      value: `p50 ${fmt(percentile(persist, 50))}`,
      target: '(reported)',
      baseline: `plain writeFileSync p50 ${fmt(percentile(plain, 50))}`,
      ratio: `${(percentile(persist, 50) / percentile(plain, 50)).toFixed(1)}×`,
      pass: true,
    });
    await kernel.close();
  } finally {
    await fake.stop();
    fs.rmSync(folder, { recursive: true, force: true });
  }
  return rows;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { printTable } = await import('./stats.js');
  const counts = process.argv
    .slice(2)
    .map(Number)
    .filter((n) => n > 0);
  const rows: BenchRow[] = [];
  for (const count of counts.length ? counts : [10_000]) rows.push(...(await benchSimplenote(count)));
  printTable(rows);
}

/**
 * Issue 31's stemming of the cache's words, alone, over the words of the notes the sync indexed:
 * its share of the full sync (a memo saved 12 % of the sync, too little to keep; stem.ts).
 */
function stemmingRow(count: number, syncMs: number): BenchRow {
  const words: string[] = [];
  for (let i = 0; i < count; i += 1)
    words.push(...(foldLetters(text(i)).match(/[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu) ?? []));
  const ms = Math.min(...[0, 1, 2].map(() => timeSync(() => words.forEach(stemWord))));
  return {
    bench: `notarium stemming, the ${words.length} words of ${count} notes`,
    value: fmt(ms),
    target: '(reported)',
    baseline: `the full sync above ${fmt(syncMs)}`,
    ratio: `${(ms / syncMs).toFixed(2)}× (share of the sync)`,
    pass: true,
  };
}

function timeSync(fn: () => void): number {
  const start = performance.now();
  fn();
  return performance.now() - start;
}
