/**
 * Search by meaning on the postgres store, with the hashed embedder (shared words, no model):
 * two hosts on one vault, each working the embedding queue; a note written on one is found by
 * meaning on the other once the queue has reached it (the lag is printed: commit to found); the
 * queue embeds every note once however many hosts work it; a lease of a process that died runs
 * out and another takes the note; a vault without vectors refuses searches by meaning; a host set
 * up with another embedder than the schema's vectors is refused.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { SearchMode } from '../../../kernel/backend.js';
import { describePg, dropSchema, freshSchema, type Host, openHost, PG_URL, until, vaultName } from './helpers.js';
import { loadPg } from '../../../backends/postgres/driver.js';

const VECTORS = { embedder: 'hashed' } as const;
const percentile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))]!;

describePg('postgres store: search by meaning', () => {
  const schema = freshSchema();
  const S = `"${schema}"`;
  const pool = () =>
    new (loadPg().Pool)({ connectionString: PG_URL, connectionTimeoutMillis: 5_000, application_name: 'nk-test' });
  let a: Host;
  let b: Host;
  let vault: string;

  beforeAll(async () => {
    vault = vaultName();
    [a, b] = [await openHost(schema, vault, VECTORS), await openHost(schema, vault, VECTORS)];
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await dropSchema(schema);
  });

  const found = async (host: Host, text: string, mode: SearchMode) =>
    (await host.search.search({ text, limit: 10, mode })).hits.map((h) => h.id);

  it('a note written on one host is found by meaning on the other once embedded, and by keyword at once', async () => {
    const lags: number[] = [];
    for (let i = 0; i < 20; i++) {
      const word = `zephyrine${i}`;
      const note = await a.store.create({
        title: `Harbour survey ${i}`,
        content: `The ${word} dredger maps the channel.`,
      });
      const committed = performance.now();
      // The kernel tells the index of its own writes; the other host hears of it through the feed.
      await a.search.upsert(note);
      expect(await found(b, word, 'keyword')).toEqual([note.id]);
      await until(async () => (await found(b, `${word} dredger`, 'semantic')).includes(note.id), 10_000, 'embedded');
      lags.push(performance.now() - committed);
    }
    console.log(
      `postgres vectors: write on one host to found by meaning on another, p50 ${percentile(lags, 0.5).toFixed(0)} ms, p95 ${percentile(lags, 0.95).toFixed(0)} ms, max ${Math.max(...lags).toFixed(0)} ms (20 notes, hashed embedder)`,
    );
  });

  it('two hosts working one queue embed each note once, and a changed note is found by its new text only', async () => {
    const before = await Promise.all([a.search.finishBackground!(), b.search.finishBackground!()]);
    const p = pool();
    try {
      // Written by SQL as an import would be, while both hosts' workers are idle: both are woken at once.
      const started = (await p.query<{ n: string }>(`SELECT count(*) AS n FROM ${S}.notes`)).rows[0]!.n;
      expect(Number(started)).toBeGreaterThan(0);
      const notes = await Promise.all(
        Array.from({ length: 120 }, (_, i) =>
          a.store.create({ title: `Bulk ${i}`, content: `ledger entry ${i} tern` }),
        ),
      );
      const after = await Promise.all([a.search.finishBackground!(), b.search.finishBackground!()]);
      const [byA, byB] = [after[0].done - before[0].done, after[1].done - before[1].done];
      // Claimed once each between them: no note embedded by both.
      expect(byA + byB).toBe(120);
      const waiting = await p.query(
        `SELECT 1 FROM ${S}.notes WHERE vault = $1 AND embedded_hash IS DISTINCT FROM content_hash`,
        [vault],
      );
      expect(waiting.rowCount).toBe(0);
      // Each note's passages stored once: one passage per short note, none twice.
      const passages = await p.query<{ n: string; notes: string }>(
        `SELECT count(*) AS n, count(DISTINCT note_id) AS notes FROM ${S}.passages WHERE vault = $1 AND note_id = ANY($2::text[])`,
        [vault, notes.map((n) => n.id)],
      );
      expect(Number(passages.rows[0]!.n)).toBe(120);
      expect(Number(passages.rows[0]!.notes)).toBe(120);
      console.log(`postgres vectors: 120 notes embedded once between two hosts (${byA} by one, ${byB} by the other)`);
      const first = notes[0]!;
      const changed = await b.store.update(
        first.id,
        { content: 'cormorant roost on the breakwater' },
        first.contentHash,
      );
      // Until re-embedded the note is not found by meaning through its old text.
      expect(await found(a, 'ledger entry 0 tern', 'semantic')).not.toContain(first.id);
      await b.search.upsert(changed);
      await a.search.finishBackground!();
      expect((await found(a, 'cormorant breakwater', 'semantic'))[0]).toBe(first.id);
      await a.store.delete(first.id);
      // The passages went with the row: no wait.
      expect(await found(b, 'cormorant breakwater', 'hybrid')).not.toContain(first.id);
    } finally {
      await p.end();
    }
  });

  it("a dead process's lease runs out and another host embeds the note", async () => {
    const p = pool();
    try {
      // A claim by a process that died a moment ago, held for 1 s more: taken before the note is
      // written, so neither host's worker (woken by the write) gets it first.
      await p.query(
        `INSERT INTO ${S}.embed_leases (vault, note_id, owner, until) VALUES ($1, $2, 'dead', now() + interval '1 second')`,
        [vault, 'general/lighthouse-keeper.md'],
      );
      const note = await a.store.create({ title: 'Lighthouse keeper', content: 'the lamp turns all night' });
      expect(note.id).toBe('general/lighthouse-keeper.md');
      await b.search.upsert(note);
      await new Promise((r) => setTimeout(r, 300));
      expect(await found(b, 'lamp night', 'semantic')).not.toContain(note.id);
      await b.search.finishBackground!();
      expect(await found(b, 'lamp night', 'semantic')).toContain(note.id);
    } finally {
      await p.end();
    }
  });

  it('hybrid ranks the note with the words first, and a page says how much is embedded while notes wait', async () => {
    const kestrel = await a.store.create({ title: 'Kestrel launch plan', content: 'budget for the kestrel launch' });
    await a.search.finishBackground!();
    const page = await b.search.search({ text: 'kestrel launch budget', limit: 5, mode: 'hybrid' });
    expect(page.hits[0]?.id).toBe(kestrel.id);
    expect(page.hits[0]?.snippet).toContain('<mark>');
    expect(page.vectors).toBeUndefined();
    const p = pool();
    try {
      // A note waiting for its vectors (as when every worker is busy): the page counts it.
      await p.query(`UPDATE ${S}.notes SET embedded_hash = NULL WHERE vault = $1 AND id = $2`, [vault, kestrel.id]);
      const waiting = await b.search.search({ text: 'kestrel', limit: 5, mode: 'semantic' });
      expect(waiting.vectors!.ready).toBe(waiting.vectors!.total - 1);
      expect(waiting.notice).toMatch(/Meaning is searched in \d+ of \d+ notes/);
    } finally {
      await p.end();
    }
  });

  it('a vault with vectors off refuses a search by meaning and names the option; another embedder is refused', async () => {
    const plain = await openHost(schema, vault);
    try {
      await expect(plain.search.search({ text: 'kestrel', limit: 5, mode: 'semantic' })).rejects.toMatchObject({
        code: 'capability_missing',
        message: expect.stringContaining('vectors: true'),
      });
      expect((await plain.search.search({ text: 'kestrel', limit: 5 })).hits.length).toBeGreaterThan(0);
    } finally {
      await plain.close();
    }
    await expect(
      openHost(schema, vault, { embedder: { url: 'http://127.0.0.1:9/v1', model: 'other', dimension: 8 } }),
    ).rejects.toMatchObject({ message: expect.stringContaining('Use the same embedder on every host') });
  });
});
