/**
 * Time bounds the unit tests no longer assert (issue 29): a unit test checks what happens — the
 * alias bomb is refused, the runaway query stopped, the hung request given up — and this bench
 * measures how soon, beside a baseline of the same run. A wall-clock bound inside a unit test
 * fails when the machine is busy, not when the code is slow; here it is a figure to compare.
 *
 * - an alias bomb refused by loadYamlBounded (was: < 500 ms in test/unit/util/frontmatter.test.ts);
 * - scanMarkdown over 1 MB of links, code and tags (was: < 1,500 ms in test/unit/links/parser.test.ts);
 * - an endless SQL query past timeoutMs 300 and a backtracking regex past its 500 ms budget,
 *   stopped (was: < 3 s and < 5 s in test/unit/search/sql.test.ts and regex.test.ts);
 * - a request to a hung embedding endpoint past timeoutMs 300 (was: < 5 s in
 *   test/unit/hybrid-search/http-embedder.test.ts);
 * - a search while the endpoint is down and a write's passages wait for vectors: it does not sit
 *   out vectorWaitMs (was: < 5 s in test/unit/hybrid-search/endpoint-embedder.test.ts).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { fsSqliteBackend, fsSqliteOptions } from '../../backends/fs-sqlite/index.js';
import type { FsSqliteSearchIndex } from '../../backends/fs-sqlite/search.js';
import { HybridSearchIndex } from '../../backends/hybrid-search/hybrid-index.js';
import type { Note, NoteSummary, ReconcileSource } from '../../kernel/index.js';
import { silentLogger } from '../../kernel/logger.js';
import { httpEmbedder } from '../../toolkit/embedding/http-embedder.js';
import { scanMarkdown } from '../../toolkit/markdown/index.js';
import { loadYamlBounded } from '../../toolkit/markdown/frontmatter.js';
import { FakeEmbeddingEndpoint } from '../support/fake-embedding-endpoint.js';
import { aliasBomb } from '../support/hostile.js';
import { fmt, percentile, sample, time, type BenchRow } from './stats.js';

export async function benchTimeBounds(workDir: string): Promise<BenchRow[]> {
  return [await aliasBombRow(), await scanRow(), ...(await stoppedQueryRows(workDir)), ...(await endpointRows())];
}

function row(bench: string, ms: number, limitMs: number, baseline: string, baselineMs: number, pass = true): BenchRow {
  return {
    bench,
    value: fmt(ms),
    target: `≤ ${fmt(limitMs)}`,
    baseline,
    ratio: `${(ms / baselineMs).toFixed(1)}× baseline`,
    pass: pass && ms <= limitMs,
  };
}

async function aliasBombRow(): Promise<BenchRow> {
  const bomb = aliasBomb();
  const refused = await sample(5, () => {
    try {
      loadYamlBounded(bomb);
    } catch {
      // refused, as the unit test checks
    }
  });
  const modest = `${Array.from({ length: 40 }, (_, i) => `key${i}: value ${i}`).join('\n')}\nlist: [a, b, c]\n`;
  const plain = await sample(50, () => loadYamlBounded(modest));
  return row(
    'alias bomb refused (loadYamlBounded, p50)',
    percentile(refused, 50),
    500,
    `a 40-key frontmatter p50 ${fmt(percentile(plain, 50))}`,
    percentile(plain, 50),
  );
}

async function scanRow(): Promise<BenchRow> {
  const chunk = 'Some text [[Link One]] and `code [[x]]` #tag https://e.com/a ![i](p.png) [m](https://m.e) `unclosed\n';
  const text = chunk.repeat(Math.ceil(1_000_000 / chunk.length));
  const scans = await sample(5, () => scanMarkdown(text));
  const floor = await sample(5, () => text.match(/\[\[/g)?.length);
  return row(
    'scanMarkdown, 1 MB of links, code and tags (p50)',
    percentile(scans, 50),
    1_500,
    `one /\\[\\[/ pass ${fmt(percentile(floor, 50))}`,
    percentile(floor, 50),
  );
}

async function stoppedQueryRows(workDir: string): Promise<BenchRow[]> {
  const root = path.join(workDir, 'time-bounds-vault');
  await fs.rm(root, { recursive: true, force: true });
  await fs.mkdir(path.join(root, 'general'), { recursive: true });
  const notes = {
    'a.md': 'INV-2024-001 paid',
    'b.md': 'see INV-2023-999',
    'c.md': `nothing numbered here\n${'a'.repeat(5000)}`,
  };
  for (const [name, body] of Object.entries(notes))
    await fs.writeFile(path.join(root, 'general', name), `---\ntitle: ${name}\n---\n\n${body}\n`);
  const instance = await fsSqliteBackend.create({
    folder: root,
    options: fsSqliteOptions.parse({}),
    logger: silentLogger(),
    readOnly: false,
  });
  const search = instance.search as FsSqliteSearchIndex;
  try {
    const endless = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c';
    const sql = await time(() => search.sql!(endless, [], { timeoutMs: 300 }).catch((err: unknown) => err));
    const sqlStopped = (sql.value as { code?: string }).code === 'timeout';
    const regex = await time(() =>
      search.search({ text: '(a+)+\\1b', regex: true, limit: 10, timeoutMs: 500 }).catch((err: unknown) => err),
    );
    const regexStopped = (regex.value as { code?: string }).code === 'timeout';
    return [
      row(
        `endless SQL query stopped, timeoutMs 300${sqlStopped ? '' : ' (NOT stopped as a timeout)'}`,
        sql.ms,
        3_000,
        'its limit 300 ms',
        300,
        sqlStopped,
      ),
      row(
        `backtracking regex stopped, budget 500 ms${regexStopped ? '' : ' (NOT stopped as a timeout)'}`,
        regex.ms,
        5_000,
        'its budget 500 ms',
        500,
        regexStopped,
      ),
    ];
  } finally {
    await instance.search?.close();
    await instance.store?.close();
    await fs.rm(root, { recursive: true, force: true });
  }
}

const note = (id: string, content: string): Note => ({
  id,
  title: id,
  content,
  tags: [],
  metadata: {},
  created: '2026-01-01T00:00:00.000Z',
  updated: '2026-01-01T00:00:00.000Z',
  contentHash: `sha256:${id}:${content.length}`,
});

async function endpointRows(): Promise<BenchRow[]> {
  const endpoint = new FakeEmbeddingEndpoint(64);
  await endpoint.start();
  try {
    endpoint.behaviour = 'hang';
    const hung = await time(() =>
      httpEmbedder({ url: endpoint.baseUrl, model: 'fake-bow', dimension: 64, timeoutMs: 300 })
        .embed(['two'])
        .catch((err: unknown) => err),
    );
    const gaveUp = /did not answer within 300 ms/.test(String(hung.value));
    endpoint.behaviour = 'ok';

    const notes = [
      note('ferry.md', 'The harbour ferry leaves at dawn.'),
      note('bread.md', 'Feed the sourdough starter.'),
    ];
    const source: ReconcileSource = {
      list: async () => notes.map(({ content: _c, ...summary }) => summary as NoteSummary),
      get: async (id) => notes.find((n) => n.id === id),
    };
    const index = new HybridSearchIndex({
      file: ':memory:',
      embedder: httpEmbedder({ url: endpoint.baseUrl, model: 'fake-bow', dimension: 64 }),
      vectorWaitMs: 10_000,
    });
    try {
      await index.reconcile(source);
      await index.finishBackground();
      await endpoint.stop();
      await index.upsert(note('kayak.md', 'Paddle along the harbour wall.'));
      const down = await time(() => index.search({ text: 'harbour', limit: 5 }));
      const keywords = await sample(5, () => index.search({ text: 'harbour', limit: 5, mode: 'keyword' }));
      return [
        row(
          `hung embedding endpoint given up, timeoutMs 300${gaveUp ? '' : ' (NOT as a timeout)'}`,
          hung.ms,
          5_000,
          'its limit 300 ms',
          300,
          gaveUp,
        ),
        row(
          'search with the endpoint down, a write waiting for vectors (vectorWaitMs 10 s)',
          down.ms,
          5_000,
          `keyword search p50 ${fmt(percentile(keywords, 50))}`,
          percentile(keywords, 50),
          down.value.hits.length === 2,
        ),
      ];
    } finally {
      await index.close();
    }
  } finally {
    await endpoint.stop().catch(() => undefined);
  }
}
