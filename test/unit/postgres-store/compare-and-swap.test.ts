/**
 * Compare-and-swap across hosts: four stores on one vault (each its own pool, as four machines
 * would have), every round the same update with the same hash sent five times through each:
 * exactly one winner, the rest `content_hash_mismatch`, and every host's next read and search
 * agree on the winner. Prints the rounds' timings as measured here.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Note } from '../../../kernel/note.js';
import { describePg, dropSchema, freshSchema, type Host, openHost, vaultName } from './helpers.js';

describePg('postgres backend: compare-and-swap between hosts', () => {
  const schema = freshSchema();
  const vault = vaultName();
  let hosts: Host[];

  beforeAll(async () => {
    hosts = await Promise.all(Array.from({ length: 4 }, () => openHost(schema, vault)));
  });
  afterAll(async () => {
    await Promise.all(hosts.map((h) => h.close()));
    await dropSchema(schema);
  });

  it('20 rounds of 20 updates with one hash: one winner each round, every host agrees', async () => {
    let note = await hosts[0]!.store.create({ title: 'Contended', content: 'round 0\n' });
    const timings: number[] = [];
    for (let round = 1; round <= 20; round++) {
      const started = performance.now();
      const results = await Promise.allSettled(
        hosts.flatMap((host, h) =>
          Array.from({ length: 5 }, (_, k) =>
            host.store.update(
              note.id,
              { content: `round ${round} writer ${h}.${k} zebra${round}\n` },
              note.contentHash,
            ),
          ),
        ),
      );
      timings.push(performance.now() - started);
      const winners = results.filter((r): r is PromiseFulfilledResult<Note> => r.status === 'fulfilled');
      expect(winners, `round ${round}`).toHaveLength(1);
      for (const r of results)
        if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'content_hash_mismatch' });
      note = winners[0]!.value;
      for (const host of hosts) {
        const read = await host.store.get(note.id);
        expect(read?.contentHash).toBe(note.contentHash);
        expect(read?.content).toBe(note.content);
        const found = await host.search.search({ text: `zebra${round}`, limit: 5 });
        expect(found.hits.map((hit) => hit.id)).toEqual([note.id]);
      }
    }
    timings.sort((a, b) => a - b);
    console.log(
      `postgres CAS: 20 contended updates (4 hosts x 5) per round, 20 rounds: median ${timings[10]!.toFixed(1)} ms, worst ${timings.at(-1)!.toFixed(1)} ms per round`,
    );
  });

  it('a batch across hosts is one transaction: its items land together or fail alone', async () => {
    const a = await hosts[0]!.store.create({ title: 'Batch A', content: 'a' });
    const b = await hosts[1]!.store.create({ title: 'Batch B', content: 'b' });
    // Host 2 changes B first: host 3's batch keeps A and refuses only B.
    const b2 = await hosts[2]!.store.update(b.id, { content: 'b by host 2' }, b.contentHash);
    const results = await hosts[3]!.store.updateMany([
      { id: a.id, change: { content: 'a by host 3' }, expectedHash: a.contentHash },
      { id: b.id, change: { content: 'b by host 3' }, expectedHash: b.contentHash },
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
    expect(results[1]).toMatchObject({
      reason: { code: 'content_hash_mismatch', details: { current_hash: b2.contentHash } },
    });
    for (const host of hosts) {
      expect((await host.store.get(a.id))?.content).toBe('a by host 3');
      expect((await host.store.get(b.id))?.content).toBe('b by host 2');
    }
  });

  it('two batches over the same notes in opposite orders both finish (no deadlock)', async () => {
    const notes = await Promise.all(
      Array.from({ length: 6 }, (_, i) => hosts[0]!.store.create({ title: `Crossed ${i}`, content: `${i}` })),
    );
    const forward = notes.map((n) => ({
      id: n.id,
      change: { content: `${n.content} fwd` },
      expectedHash: n.contentHash,
    }));
    const [one, two] = await Promise.all([
      hosts[1]!.store.updateMany(forward),
      hosts[2]!.store.updateMany([...forward].reverse()),
    ]);
    const won = [...one!, ...two!].filter((r) => r.status === 'fulfilled');
    expect(won).toHaveLength(notes.length);
  });
});
