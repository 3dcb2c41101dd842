/**
 * PostgreSQL stopped under a running store and started again, on a private cluster of its own
 * (`.ci/postgres start`, so the shared test server is never stopped): while it is down every call
 * fails fast with `backend_unavailable`; every acknowledged write is there after the restart; the
 * store serves again within seconds without being reopened, and its feed announces a write made
 * by another host after the restart. Prints the down-time answer times and the time to recover.
 */
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ExternalChange } from '../../../kernel/backend.js';
import { describePg, type Host, openHost, until, vaultName } from './helpers.js';

const PG_BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';

/** Runs a server binary as the cluster's owner (PostgreSQL refuses root), as .ci/postgres does. */
function asPostgres(args: string[]): void {
  const asRoot = process.getuid?.() === 0;
  execFileSync(asRoot ? 'runuser' : args[0]!, asRoot ? ['-u', 'postgres', '--', ...args] : args.slice(1), {
    stdio: 'ignore',
  });
}

describePg('postgres backend: the server stopped and started again', () => {
  let dir: string;
  let url: string;
  let port: string;
  const hosts: Host[] = [];

  const pgctl = (action: 'stop' | 'start') =>
    asPostgres(
      action === 'stop'
        ? [`${PG_BIN}/pg_ctl`, '-D', `${dir}/data`, '-m', 'fast', '-w', 'stop']
        : [
            `${PG_BIN}/pg_ctl`,
            '-D',
            `${dir}/data`,
            '-l',
            `${dir}/server.log`,
            '-w',
            '-o',
            `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off`,
            'start',
          ],
    );

  beforeAll(() => {
    const exports = execFileSync('bash', ['.ci/postgres', 'start'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    url = /NOTEKERNEL_TEST_PG_URL=(\S+)/.exec(exports)![1]!;
    dir = /NOTEKERNEL_TEST_PG_DIR=(\S+)/.exec(exports)![1]!;
    port = new URL(url).port;
  }, 60_000);
  afterAll(async () => {
    for (const host of hosts) await host.close();
    if (dir) execFileSync('bash', ['.ci/postgres', 'stop', dir], { stdio: 'ignore' });
  });

  it('fails fast while down, loses no acknowledged write, and serves again after the restart', async () => {
    const vault = vaultName();
    const here = await openHost('notekernel', vault, { url });
    const there = await openHost('notekernel', vault, { url });
    hosts.push(here, there);
    const seen: ExternalChange[] = [];
    here.store.watch((change) => seen.push(change));
    const acknowledged = [];
    for (let i = 0; i < 20; i++) acknowledged.push(await here.store.create({ title: `Before ${i}`, content: `${i}` }));

    pgctl('stop');
    const answers: number[] = [];
    for (let i = 0; i < 5; i++) {
      const started = performance.now();
      await expect(here.store.create({ title: `While down ${i}`, content: 'x' })).rejects.toMatchObject({
        code: 'backend_unavailable',
      });
      await expect(here.store.get(acknowledged[0]!.id)).rejects.toMatchObject({ code: 'backend_unavailable' });
      answers.push(performance.now() - started);
    }

    pgctl('start');
    const restarted = performance.now();
    await until(
      async () => (await here.store.count().catch(() => -1)) === acknowledged.length,
      10_000,
      'the store serving again',
    );
    const recovered = performance.now() - restarted;
    for (const note of acknowledged) expect((await there.store.get(note.id))?.contentHash).toBe(note.contentHash);
    const after = await there.store.create({ title: 'After the restart', content: 'x' });
    await until(() => seen.some((c) => c.kind === 'written' && c.note.id === after.id), 10_000, 'the feed resuming');
    console.log(
      `postgres restart: calls while down answered in ${Math.max(...answers).toFixed(0)} ms at most (create + get); serving again ${recovered.toFixed(0)} ms after the server was up`,
    );
    expect(Math.max(...answers)).toBeLessThan(7_000);
    expect(recovered).toBeLessThan(5_000);
  }, 90_000);
});
