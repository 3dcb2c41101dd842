/**
 * Faults: a server that cannot be reached fails the open fast with `backend_unavailable`, and no
 * message carries the password; connections cut under a running store (pg_terminate_backend of
 * this test's own sessions only, told apart by their application name) fail the write in flight
 * with `backend_unavailable` without writing it, keep every acknowledged write, and the store and
 * its feed serve again without being reopened.
 */
import net from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadPg, type PgPool } from '../../../backends/postgres/driver.js';
import type { ExternalChange } from '../../../kernel/backend.js';
import {
  describePg,
  dropSchema,
  freshSchema,
  type Host,
  openHost,
  PG_URL,
  until,
  urlNamed,
  vaultName,
} from './helpers.js';

/** A local port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describePg('postgres backend: connection loss', () => {
  const schema = freshSchema();
  const vault = vaultName();
  const appName = `nk-loss-${vault}`;
  let victim: Host;
  let other: Host;
  let raw: PgPool;
  const cut = () =>
    raw.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [appName]);

  beforeAll(async () => {
    victim = await openHost(schema, vault, { url: urlNamed(appName) });
    other = await openHost(schema, vault);
    const { Pool } = loadPg();
    raw = new Pool({ connectionString: PG_URL, connectionTimeoutMillis: 5_000, application_name: 'nk-test' });
  });
  afterAll(async () => {
    await victim.close();
    await other.close();
    await raw.end();
    await dropSchema(schema);
  });

  it('an unreachable server fails the open within seconds, as backend_unavailable, password masked', async () => {
    const started = Date.now();
    const url = `postgres://notes:sekret-pw@127.0.0.1:${await closedPort()}/notes`;
    const opening = openHost(schema, vault, { url });
    await expect(opening).rejects.toMatchObject({ code: 'backend_unavailable' });
    const err = await opening.catch((e: Error) => e);
    expect(String((err as Error).message)).not.toContain('sekret-pw');
    expect(JSON.stringify(err)).not.toContain('sekret-pw');
    expect(String((err as Error).message)).toContain('notes:***@127.0.0.1');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('a write whose connection is cut fails as backend_unavailable and writes nothing; the next one lands', async () => {
    const note = await victim.store.create({ title: 'Survivor', content: 'acknowledged\n' });
    const attempt = victim.store.update(
      note.id,
      async () => {
        // Under the row lock, inside the transaction: the session dies before the UPDATE is sent.
        await cut();
        return { content: 'never acknowledged\n' };
      },
      note.contentHash,
    );
    await expect(attempt).rejects.toMatchObject({ code: 'backend_unavailable' });
    expect(await other.store.get(note.id)).toMatchObject({ content: 'acknowledged\n', contentHash: note.contentHash });
    // The pool replaced its connections: the same update, with the same hash, now succeeds.
    const updated = await victim.store.update(note.id, { content: 'second try\n' }, note.contentHash);
    expect((await other.store.get(note.id))?.contentHash).toBe(updated.contentHash);
  });

  it('the feed resumes after every connection is cut, announcing what was written meanwhile', async () => {
    const seen: ExternalChange[] = [];
    const stop = victim.store.watch((change) => seen.push(change));
    try {
      const before = victim.store.journal.owner;
      await cut();
      const meanwhile = await other.store.create({ title: 'Written while cut off', content: 'x' });
      await until(
        () => seen.some((c) => c.kind === 'written' && c.note.id === meanwhile.id),
        8_000,
        'the announcement',
      );
      await until(() => victim.store.journal.owner !== before, 8_000, 'a new listening session');
      expect(await victim.store.count()).toBe(await other.store.count());
    } finally {
      stop();
    }
  });
});
