/**
 * Opt-in figures for search by meaning on the postgres store (NOTEKERNEL_PG_VECTOR_SCALE=<notes>):
 * a vault filled by SQL (as scale.test.ts fills it), embedded by two hosts' queues with the hashed
 * embedder (the rate printed), then hybrid, semantic and keyword p50/p95 over questions. With
 * NOTEKERNEL_PG_VECTOR_MODEL=use-lite, the bundled model's lag from a write on one host to the
 * note found by meaning on the other is measured on 20 notes written into that vault. Printed
 * for decision 048, asserted only for sanity.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPg } from '../../../backends/postgres/driver.js';
import { describePg, dropSchema, freshSchema, type Host, openHost, PG_URL, until, vaultName } from './helpers.js';

const NOTES = Number(process.env.NOTEKERNEL_PG_VECTOR_SCALE ?? 0);
const MODEL = process.env.NOTEKERNEL_PG_VECTOR_MODEL ?? 'hashed';
const WORDS =
  'harbour ferry island storm bakery bread morning budget launch kestrel heron osprey survey plan review road map wall port dawn'.split(
    ' ',
  );
const QUESTIONS = [
  'what is the budget for the kestrel launch',
  'when does the ferry leave the island',
  'storm damage to the harbour wall',
  'morning bread at the bakery',
  'heron survey plan review',
  'road map for the port',
];
const percentile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))]!;

function suite(): void {
  const schema = freshSchema();
  const vault = vaultName();
  let hosts: Host[];

  beforeAll(async () => {
    // The hashed embedder's cosines over made-up words are small: no floor, so the semantic leg ranks its full candidates.
    const options = { embedder: MODEL, ...(MODEL === 'hashed' ? { minSimilarity: 0 } : {}) };
    hosts = [await openHost(schema, vault, options), await openHost(schema, vault, options)];
    const S = `"${schema}"`;
    const pool = new (loadPg().Pool)({
      connectionString: PG_URL,
      connectionTimeoutMillis: 5_000,
      application_name: 'nk-test',
    });
    // Words in sentences (each note ~60 words, two of the 20 real words) so passages are short prose.
    await pool.query(
      `WITH gen AS (
         SELECT i, 'Note ' || i || ' on the ' || ($3::text[])[1 + i % 20] AS title,
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
  }, 900_000);
  afterAll(async () => {
    for (const host of hosts ?? []) await host.close();
    await dropSchema(schema);
  });

  it('embeds the vault with two hosts, then hybrid, semantic and keyword p50/p95', async () => {
    const started = performance.now();
    const [first, second] = await Promise.all(hosts.map((h) => h.search.finishBackground!()));
    const seconds = (performance.now() - started) / 1000;
    expect(first!.done + second!.done).toBe(NOTES);
    console.log(
      `postgres vectors (${MODEL}): ${NOTES} notes embedded by two hosts in ${seconds.toFixed(1)} s (${(NOTES / seconds).toFixed(0)} notes/s; ${first!.done} + ${second!.done})`,
    );
    for (const mode of ['hybrid', 'semantic', 'keyword'] as const) {
      const times: number[] = [];
      for (let round = 0; round < 5; round++)
        for (const text of QUESTIONS) {
          const t = performance.now();
          const page = await hosts[round % 2]!.search.search({ text, limit: 10, mode });
          times.push(performance.now() - t);
          // Made-up words carry no meaning: by meaning alone a question may find nothing above the floor.
          if (mode !== 'semantic') expect(page.hits.length).toBeGreaterThan(0);
        }
      console.log(
        `postgres vectors: ${mode} p50 ${percentile(times, 0.5).toFixed(0)} ms, p95 ${percentile(times, 0.95).toFixed(0)} ms over ${NOTES} notes (${times.length} questions, limit 10)`,
      );
    }
  }, 3_600_000);

  it('a write on one host is found by meaning on the other: lag p50/p95', async () => {
    const lags: number[] = [];
    for (let i = 0; i < 20; i++) {
      const note = await hosts[0]!.store.create({
        title: `Quarry report ${i}`,
        content: `Blasting at the limestone quarry ${i} shook the village windows.`,
      });
      const committed = performance.now();
      await hosts[0]!.search.upsert(note);
      // The quarry notes differ only by their number, which a sentence model hardly sees: look past the first ten.
      await until(
        async () =>
          (
            await hosts[1]!.search.search({ text: `limestone quarry ${i} blasting`, limit: 50, mode: 'semantic' })
          ).hits.some((h) => h.id === note.id),
        60_000,
        'embedded',
      );
      lags.push(performance.now() - committed);
    }
    console.log(
      `postgres vectors (${MODEL}): write to found by meaning on another host p50 ${percentile(lags, 0.5).toFixed(0)} ms, p95 ${percentile(lags, 0.95).toFixed(0)} ms, max ${Math.max(...lags).toFixed(0)} ms (20 notes, ${NOTES} in the vault)`,
    );
  }, 600_000);
}

if (NOTES > 0) describePg(`postgres store: search by meaning at ${NOTES} notes`, suite);
else
  describe.skip('postgres store: search by meaning at scale (set NOTEKERNEL_PG_VECTOR_SCALE=<notes>)', () => {
    it('is opt-in', () => undefined);
  });
