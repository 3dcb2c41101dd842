/**
 * Opt-in figures at scale (NOTEKERNEL_PG_SCALE=<notes>, e.g. 100000): a vault filled in bulk by
 * SQL (rows as the store writes them: text, hash, search vector; 60 words a note from 5,000
 * made-up words, each of 20 real ones in about 10% of the notes), then measured through the store:
 * keyword search p50/p95 over questions and single words, create and update throughput with four
 * writers, and the feed's commit-to-announcement latency under that load. Printed, not asserted
 * beyond sanity: the bench of issue 30 proper (against fs-sqlite) is not written yet.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExternalChange } from '../../../kernel/backend.js';
import { describePg, dropSchema, freshSchema, type Host, openHost, until, vaultName } from './helpers.js';

const NOTES = Number(process.env.NOTEKERNEL_PG_SCALE ?? 0);
const WORDS =
  'harbour ferry island storm bakery bread morning budget launch kestrel heron osprey survey plan review road map wall port dawn'.split(
    ' ',
  );

const percentile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))]!;

function scaleSuite(): void {
  const schema = freshSchema();
  const vault = vaultName();
  let hosts: Host[];

  beforeAll(async () => {
    hosts = await Promise.all(Array.from({ length: 5 }, () => openHost(schema, vault)));
    const started = performance.now();
    const S = `"${schema}"`;
    const { loadPg } = await import('../../../backends/postgres/driver.js');
    const { PG_URL } = await import('./helpers.js');
    const { Pool } = loadPg();
    const pool = new Pool({ connectionString: PG_URL, connectionTimeoutMillis: 5_000, application_name: 'nk-test' });
    await pool.query(
      `WITH gen AS (
         SELECT i, 'Note ' || i AS title,
           (SELECT string_agg(CASE WHEN k = 1 + i % 17 THEN ($3::text[])[1 + i % 20]
               WHEN k = 30 THEN ($3::text[])[1 + (i / 20) % 20]
               ELSE 'w' || ((i * 31 + k * k * 17) % 5000) END, ' ') FROM generate_series(1, 60) k) AS body
         FROM generate_series(1, $2::int) i),
       texts AS (SELECT i, title, body, '---' || chr(10) || 'title: ' || title || chr(10) || 'type: general' || chr(10) || '---' || chr(10) || chr(10) || body AS text FROM gen)
       INSERT INTO ${S}.notes (vault, id, type, title, body, text, metadata, tags, content_hash, size, created, updated, tsv)
       SELECT $1, 'general/note-' || i || '.md', 'general', title, body, text, '{}'::json, '{}',
         'sha256:' || encode(sha256(convert_to(text, 'UTF8')), 'hex'), octet_length(text),
         '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z',
         setweight(to_tsvector('${S}.stemmed', lower(title)), 'A') || setweight(to_tsvector('${S}.stemmed', body), 'D')
       FROM texts`,
      [vault, NOTES, WORDS],
    );
    await pool.query(`ANALYZE ${S}.notes`);
    await pool.end();
    console.log(
      `postgres scale: ${NOTES} notes loaded by SQL in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  }, 900_000);
  afterAll(async () => {
    for (const host of hosts) await host.close();
    await dropSchema(schema);
  });

  it('keyword search, writes with four writers, and the feed under that load (printed)', async () => {
    const [reader, ...writers] = hosts as [Host, ...Host[]];
    expect(await reader.store.count()).toBe(NOTES);
    const times: Record<string, number[]> = { word: [], question: [] };
    for (let i = 0; i < 40; i++) {
      for (const [kind, text] of [
        ['word', WORDS[i % WORDS.length]!],
        [
          'question',
          `which ${WORDS[i % WORDS.length]} has a ${WORDS[(i + 5) % WORDS.length]} and ${WORDS[(i + 9) % WORDS.length]}?`,
        ],
      ] as const) {
        const started = performance.now();
        const page = await reader.search.search({ text, limit: 10 });
        times[kind]!.push(performance.now() - started);
        expect(page.hits.length).toBeGreaterThan(0);
      }
    }
    const seen = new Map<string, number>();
    reader.store.watch((change: ExternalChange) => {
      if (change.kind === 'written') seen.set(change.note.id, performance.now());
    });
    const committed = new Map<string, number>();
    let creates = 0;
    let updates = 0;
    const deadline = performance.now() + 10_000;
    await Promise.all(
      writers.map(async (host, w) => {
        for (let i = 0; performance.now() < deadline; i++) {
          const note = await host.store.create({ title: `Writer ${w} note ${i}`, content: `load ${i}` });
          committed.set(note.id, performance.now());
          creates += 1;
          await host.store.update(note.id, { content: `load ${i} updated` }, note.contentHash);
          updates += 1;
        }
      }),
    );
    await until(() => [...committed.keys()].every((id) => seen.has(id)), 15_000, 'every write announced');
    const feed = [...committed].map(([id, at]) => seen.get(id)! - at);
    console.log(
      `postgres scale, ${NOTES} notes: keyword p50/p95 ${percentile(times.word!, 0.5).toFixed(1)}/${percentile(times.word!, 0.95).toFixed(1)} ms (one word), ${percentile(times.question!, 0.5).toFixed(1)}/${percentile(times.question!, 0.95).toFixed(1)} ms (questions); 4 writers, 10 s: ${(creates / 10).toFixed(0)} creates/s + ${(updates / 10).toFixed(0)} updates/s; feed p50/p95 ${percentile(feed, 0.5).toFixed(1)}/${percentile(feed, 0.95).toFixed(1)} ms over ${feed.length} creates`,
    );
  }, 120_000);
}

if (NOTES > 0) describePg(`postgres backend at ${NOTES} notes (opt-in)`, scaleSuite);
else
  describe.skip('postgres backend at scale (opt-in: set NOTEKERNEL_PG_SCALE=<notes>, e.g. 100000)', () => {
    it('runs only when asked', () => undefined);
  });
