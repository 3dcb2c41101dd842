/**
 * PostgreSQL stopped under a running store and started again, on a private cluster of its own
 * (`.ci/postgres start`, so the shared test server is never stopped), for 10 s while two stores
 * keep writing: every call fails fast with `backend_unavailable` meanwhile; every acknowledged write
 * is there after the restart; the stores write again within seconds without being reopened, and
 * the feed announces another host's write. Prints the answer times while down and the recovery.
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

  it('stopped 10 s under two writers: fails fast, loses no acknowledged write, serves again after', async () => {
    const vault = vaultName();
    const here = await openHost('notekernel', vault, { url });
    const there = await openHost('notekernel', vault, { url });
    hosts.push(here, there);
    const seen: ExternalChange[] = [];
    here.store.watch((change) => seen.push(change));
    // Two writers that never stop: every create they were told succeeded must be there after.
    const acknowledged: Array<{ id: string; contentHash: string }> = [];
    const refused: string[] = [];
    const answers: number[] = [];
    let writing = true;
    let down = false;
    const writers = [here, there].map(async (host, w) => {
      for (let i = 0; writing; i++) {
        const started = performance.now();
        try {
          acknowledged.push(await host.store.create({ title: `Writer ${w} ${i}`, content: `${i}` }));
        } catch (err) {
          refused.push((err as { code?: string }).code ?? String(err));
          if (down) answers.push(performance.now() - started);
          await new Promise((r) => setTimeout(r, 50));
        }
      }
    });
    await until(() => acknowledged.length >= 20, 10_000, 'writes before the stop');

    pgctl('stop');
    down = true;
    await new Promise((r) => setTimeout(r, 10_000));
    const beforeRestart = acknowledged.length;
    pgctl('start');
    down = false;
    const restarted = performance.now();
    await until(() => acknowledged.length > beforeRestart, 10_000, 'the writers writing again');
    const recovered = performance.now() - restarted;
    writing = false;
    await Promise.all(writers);

    expect(new Set(refused)).toEqual(new Set(['backend_unavailable']));
    for (const note of acknowledged) expect((await there.store.get(note.id))?.contentHash).toBe(note.contentHash);
    expect(await here.store.count()).toBe(acknowledged.length);
    const after = await there.store.create({ title: 'After the restart', content: 'x' });
    await until(() => seen.some((c) => c.kind === 'written' && c.note.id === after.id), 10_000, 'the feed resuming');
    answers.sort((a, b) => a - b);
    console.log(
      `postgres stopped 10 s under 2 writers: ${answers.length} refused calls while down, answered in ${answers[Math.floor(answers.length / 2)]?.toFixed(0)} ms median, ${answers.at(-1)?.toFixed(0)} ms at most; writing again ${recovered.toFixed(0)} ms after the server was up; ${acknowledged.length} acknowledged writes all there`,
    );
    expect(answers.at(-1)!).toBeLessThan(4_000);
    expect(recovered).toBeLessThan(5_000);
  }, 90_000);
});
