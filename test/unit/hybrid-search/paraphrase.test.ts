/**
 * The real model (USE-lite) on a generated vault of 32 notes, each asked about by a question that
 * shares no content word with it: top-1 and top-5 for the semantic, keyword and hybrid modes, the
 * hybrid mode measured with its keyword leg reading the question (the default: any content word)
 * and holding only passages with every word (`fusionKeywords: all`).
 * Also: the model loads from the package with no network request, and a planted unique token
 * ranks its note first by keyword and by hybrid. One model load for the whole file (≈1–2 s).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HybridSearchIndex } from '../../../backends/hybrid-search/hybrid-index.js';
import type { Note, SearchMode } from '../../../kernel/index.js';
import type { Embedder } from '../../../toolkit/embedding/embedder.js';
import { useLiteEmbedder } from '../../../toolkit/embedding/use-lite-embedder.js';
import { workerPoolEmbedder } from '../../../toolkit/embedding/worker-pool-embedder.js';
import { packageRoot } from '../../../toolkit/package-root.js';
import { parseQuery, questionTerms } from '../../../kernel/query.js';

const contentWords = (text: string) => questionTerms(parseQuery(text))?.flatMap((t) => t.words) ?? [];
import { paraphraseCases } from '../../support/paraphrase-vault.js';

const cases = paraphraseCases();
const notes: Note[] = cases.map((c, i) => ({
  id: `general/note-${i + 1}.md`,
  title: c.title,
  content: c.content,
  tags: [],
  metadata: {},
  created: '2026-01-01T00:00:00.000Z',
  updated: `2026-01-01T00:00:${String(i).padStart(2, '0')}.000Z`,
  type: 'general',
  contentHash: `sha256:${i}`,
}));

/** Embeds each distinct text once, so the OR-fused index reuses the vectors of the first. */
function memoised(inner: Embedder): Embedder {
  const seen = new Map<string, Float32Array>();
  return {
    id: inner.id,
    dim: inner.dim,
    async embed(texts) {
      const missing = [...new Set(texts.filter((t) => !seen.has(t)))];
      (await inner.embed(missing)).forEach((v, i) => seen.set(missing[i]!, v));
      return texts.map((t) => Float32Array.from(seen.get(t)!));
    },
  };
}

describe('paraphrase questions with the real model (USE-lite)', () => {
  const realFetch = globalThis.fetch;
  const requests: string[] = [];
  let all: HybridSearchIndex;
  let everyWord: HybridSearchIndex;
  let load: { ms: number; rssMb: number; embedMs: number; chunks: number };
  let embedder: Embedder;

  beforeAll(async () => {
    // Nothing may be downloaded: any HTTP request fails the test.
    globalThis.fetch = (async (input: unknown) => {
      requests.push(String(input));
      throw new Error('no network in this test');
    }) as typeof fetch;
    embedder = memoised(useLiteEmbedder());
    const rss = process.memoryUsage().rss;
    let started = performance.now();
    await embedder.embed(['warm up the model']);
    const loaded = performance.now();
    load = { ms: loaded - started, rssMb: (process.memoryUsage().rss - rss) / 1e6, embedMs: 0, chunks: 0 };
    all = new HybridSearchIndex({ file: ':memory:', embedder });
    started = performance.now();
    for (const note of notes) await all.upsert(note);
    await all.finishBackground();
    load.embedMs = performance.now() - started;
    load.chunks = all.stats().embedded;
    everyWord = new HybridSearchIndex({ file: ':memory:', embedder, fusionKeywords: 'all' });
    for (const note of notes) await everyWord.upsert(note);
    await everyWord.finishBackground();
  }, 180_000);

  afterAll(async () => {
    globalThis.fetch = realFetch;
    await all?.close();
    await everyWord?.close();
  });

  it('the questions share no content word with their notes', () => {
    expect(cases.length).toBeGreaterThanOrEqual(30);
    const shared = cases
      .map((c) => {
        const noteWords = new Set(contentWords(`${c.title} ${c.content}`));
        return { question: c.question, words: contentWords(c.question).filter((w) => noteWords.has(w)) };
      })
      .filter((c) => c.words.length);
    expect(shared).toEqual([]);
  });

  it('finds the paraphrased note: hybrid top-5 ≥ 90 %, loaded without a network request', async () => {
    const table: Record<string, { top1: string; top5: string }> = {};
    const score = async (index: HybridSearchIndex, mode: SearchMode) => {
      let top1 = 0;
      let top5 = 0;
      for (const [i, c] of cases.entries()) {
        const ids = (await index.search({ text: c.question, limit: 5, mode })).hits.map((h) => h.id);
        if (ids[0] === notes[i]!.id) top1 += 1;
        if (ids.includes(notes[i]!.id)) top5 += 1;
      }
      return { top1, top5 };
    };
    const rows = [
      ['semantic', await score(all, 'semantic')],
      ['keyword', await score(all, 'keyword')],
      ['hybrid (keyword leg: the question)', await score(all, 'hybrid')],
      ['hybrid (keyword leg: every word)', await score(everyWord, 'hybrid')],
    ] as const;
    for (const [name, { top1, top5 }] of rows) table[name] = { top1: `${top1}/${cases.length}`, top5: `${top5}/${cases.length}` };
    console.info('paraphrase retrieval', table);
    console.info('model', { loadMs: Math.round(load.ms), rssGrowthMb: Math.round(load.rssMb), chunks: load.chunks, chunksPerSecond: +((load.chunks / load.embedMs) * 1000).toFixed(1) });
    expect(requests).toEqual([]);
    expect(rows[0][1].top5).toBeGreaterThanOrEqual(Math.ceil(cases.length * 0.9));
    expect(rows[2][1].top5).toBeGreaterThanOrEqual(Math.ceil(cases.length * 0.9));
    // Notes sharing an incidental word with the question earn the keyword share only for the
    // part of the question they hold (decision 037): the meaning still ranks the note first.
    expect(rows[2][1].top1).toBeGreaterThanOrEqual(rows[0][1].top1 - 4);
  }, 120_000);

  it('a planted unique token ranks its note first by keyword and by hybrid', async () => {
    for (const [i, c] of cases.entries()) {
      for (const mode of ['keyword', 'hybrid'] as const) {
        const page = await all.search({ text: c.token, limit: 5, mode });
        expect(page.hits[0]?.id, `${mode} ${c.token}`).toBe(notes[i]!.id);
        expect(page.hits[0]?.snippet).toContain(`<mark>${c.token}</mark>`);
      }
    }
  }, 120_000);

  it('worker threads return the same vectors, in order, as the main thread', async (ctx) => {
    // Workers run the built JavaScript; from sources alone there is nothing to start.
    const script = path.join(packageRoot(), 'dist', 'toolkit', 'embedding', 'embed-worker.js');
    if (!existsSync(script)) ctx.skip();
    const pool = workerPoolEmbedder(script, 2);
    try {
      const texts = cases.slice(0, 3).map((c) => c.question);
      const [pooled, direct] = [await pool.embed(texts), await embedder.embed(texts)];
      expect(pooled.length).toBe(3);
      pooled.forEach((vector, i) => {
        let dot = 0;
        for (let d = 0; d < vector.length; d++) dot += vector[d]! * direct[i]![d]!;
        expect(dot).toBeGreaterThan(0.999);
      });
      expect(requests).toEqual([]);
    } finally {
      await pool.close();
    }
  }, 120_000);
});
