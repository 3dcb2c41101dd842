/**
 * Note changes announced whoever made them (issue 28, must-show 3): three `serve` processes on
 * one flint vault folder (A and B over HTTP, C over stdio). On A a 2026-07-28 client listens
 * (`subscriptions/listen`) and a 2025-11-25 client has subscribed (`resources/subscribe`) to
 * `flint-note://recent`; C's own 2026-07-28 client listens on stdio. A note written through B or
 * C, a file an editor writes into the folder, and a note written through A's own tool must each
 * reach them within 2 s. The latencies (from just before the write to the announcement's
 * arrival in this process) are printed per source.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Client } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Announcements, spread } from '../../support/announcements.js';
import {
  callOk,
  connectHttp,
  connectStdio,
  type HttpServerProcess,
  type StdioSession,
  startHttpServer,
} from '../../support/mcp.js';
import { removeDir, tempDir } from '../../support/temp.js';

const RECENT = 'flint-note://recent';
const BOUND_MS = 2000;
/** Between rounds: lets a round's last announcements land before the next round's clock starts. */
const QUIET_MS = 400;

let vault: string;
let a: HttpServerProcess;
let b: HttpServerProcess;
let c: StdioSession;
const clients: Client[] = [];
let modernOnA: Announcements;
let legacyOnA: Announcements;
let stdioOnC: Announcements;
let writerOnA: Client;
let writerOnB: Client;
const printed: string[] = [];

afterAll(() => {
  if (printed.length) console.log(`announcement latency, ms (from before the write):\n${printed.join('\n')}`);
});

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Target = [listener: Announcements, uri: string];

/** How long a listener is waited for: past the bound, so a late announcement is measured, not only missed. */
const WAIT_MS = 3000;

/**
 * Makes `rounds` writes, one at a time, and measures how long each took to reach every
 * listener (as an announcement of the target's URI). Every round runs even when one misses, so
 * the printout and the failure show each listener's whole record: which processes missed a
 * write tells where it was lost.
 */
async function measure(source: string, rounds: number, write: (round: number) => Promise<unknown>, targets: Target[]) {
  const latencies = targets.map(() => [] as number[]);
  const missed = targets.map(() => [] as number[]);
  for (let round = 0; round < rounds; round++) {
    await pause(QUIET_MS);
    const since = performance.now();
    await write(round);
    const measured = await Promise.allSettled(targets.map(([listener, uri]) => listener.latency(uri, since, WAIT_MS)));
    measured.forEach((m, i) => (m.status === 'fulfilled' ? latencies[i]!.push(m.value) : missed[i]!.push(round)));
  }
  const records = targets.map(([listener, uri], i) => {
    const { n, p50, max } = spread(latencies[i]!);
    const label = `${source} -> ${listener.name}${uri === RECENT ? '' : ` (${uri})`}`;
    const line = `${label}: ${n} of ${rounds} announced${n ? `, p50=${p50} max=${max}` : ''}`;
    printed.push(`  ${line}`);
    return { line, late: latencies[i]!.filter((ms) => ms >= BOUND_MS).length, missed: missed[i]!.length };
  });
  const failing = records.filter((r) => r.late || r.missed).map((r) => r.line);
  expect(failing, `not every write reached every listener within ${BOUND_MS} ms`).toEqual([]);
}

const onRecent = (...listeners: Announcements[]): Target[] => listeners.map((l) => [l, RECENT]);

describe('note changes announced across processes on one flint vault', { timeout: 60_000 }, () => {
  beforeAll(async () => {
    vault = await tempDir('nk-e2e-announce-');
    const args = ['--profile', 'flint', '--vault', vault];
    // A first: the others then open a vault whose defaults are written.
    a = await startHttpServer(args);
    [b, c] = await Promise.all([startHttpServer(args), connectStdio(['serve', ...args], {}, { era: 'modern' })]);

    const modern = await connectHttp(a.url, { era: 'modern' });
    const legacy = await connectHttp(a.url);
    writerOnA = await connectHttp(a.url);
    writerOnB = await connectHttp(b.url);
    clients.push(modern, legacy, writerOnA, writerOnB);
    modernOnA = new Announcements(modern, 'A, 2026-07-28 listener');
    legacyOnA = new Announcements(legacy, 'A, 2025-11-25 subscriber');
    stdioOnC = new Announcements(c.client, 'C (stdio), 2026-07-28 listener');
    await modern.listen({ resourceSubscriptions: [RECENT] });
    await legacy.subscribeResource({ uri: RECENT });
    await c.client.listen({ resourceSubscriptions: [RECENT] });
  }, 60_000);

  afterAll(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await c?.close();
    await Promise.all([a?.stop(), b?.stop()]);
    if (vault) await removeDir(vault);
  });

  it('a note created through process B reaches both eras on A, and the stdio process C, within 2 s', async () => {
    await measure(
      'create_note through B (HTTP)',
      5,
      (round) =>
        callOk({ client: writerOnB }, 'create_note', { title: `From B ${round}`, content: 'Written through B.' }),
      onRecent(modernOnA, legacyOnA, stdioOnC),
    );
  });

  it('a note created through the stdio process C reaches both eras on A within 2 s', async () => {
    await measure(
      'create_note through C (stdio)',
      3,
      (round) => callOk(c, 'create_note', { title: `From C ${round}`, content: 'Written through C.' }),
      onRecent(modernOnA, legacyOnA),
    );
  });

  it('a file an editor writes into the vault folder is announced to every listener within 2 s', async () => {
    await measure(
      'a file written into the folder',
      3,
      (round) =>
        fs.writeFile(
          path.join(vault, 'general', `editor-${round}.md`),
          `---\ntitle: Editor ${round}\n---\n\nWritten by an editor.\n`,
        ),
      onRecent(modernOnA, legacyOnA, stdioOnC),
    );
  });

  it("a note written through A's own tool is announced on A, under recent and under the note's own URI", async () => {
    const own = 'flint-note://note/general/from-a.md';
    const [modern, legacy] = clients;
    await modern!.listen({ resourceSubscriptions: [own] });
    await legacy!.subscribeResource({ uri: own });
    await measure(
      "create_note through A's own tool",
      1,
      () => callOk({ client: writerOnA }, 'create_note', { title: 'From A', content: 'Written through A.' }),
      [...onRecent(modernOnA, legacyOnA), [modernOnA, own], [legacyOnA, own]],
    );
  });
});

// The editor's case without another process on the folder to index the file first: what a
// single server must announce in any case, and the latency with nothing else in the way. Two
// folders, each served by one process: one over HTTP (both eras on it), one over stdio with a
// 2025-11-25 client (`resources/subscribe` on stdio); each round writes the same file into both.
describe('an editor writing into the folder of a lone process', { timeout: 60_000 }, () => {
  let overHttp: string;
  let overStdio: string;
  let server: HttpServerProcess;
  let session: StdioSession;
  const own: Client[] = [];
  let modern: Announcements;
  let legacy: Announcements;
  let legacyStdio: Announcements;

  beforeAll(async () => {
    [overHttp, overStdio] = await Promise.all([tempDir('nk-e2e-announce-lone-'), tempDir('nk-e2e-announce-lone-')]);
    [server, session] = await Promise.all([
      startHttpServer(['--profile', 'flint', '--vault', overHttp]),
      connectStdio(['serve', '--profile', 'flint', '--vault', overStdio]),
    ]);
    const [m, l] = [await connectHttp(server.url, { era: 'modern' }), await connectHttp(server.url)];
    own.push(m, l);
    modern = new Announcements(m, 'lone HTTP process, 2026-07-28 listener');
    legacy = new Announcements(l, 'lone HTTP process, 2025-11-25 subscriber');
    legacyStdio = new Announcements(session.client, 'lone stdio process, 2025-11-25 subscriber');
    await m.listen({ resourceSubscriptions: [RECENT] });
    await l.subscribeResource({ uri: RECENT });
    await session.client.subscribeResource({ uri: RECENT });
  }, 60_000);
  afterAll(async () => {
    await Promise.all(own.map((client) => client.close()));
    await session?.close();
    await server?.stop();
    for (const folder of [overHttp, overStdio]) if (folder) await removeDir(folder);
  });

  it('announces every file written, in both eras and on both transports, within 2 s', async () => {
    await measure(
      "a file written into a lone process's folder",
      5,
      (round) =>
        Promise.all(
          [overHttp, overStdio].map((folder) =>
            fs.writeFile(
              path.join(folder, 'general', `editor-${round}.md`),
              `---\ntitle: Editor ${round}\n---\n\nWritten by an editor.\n`,
            ),
          ),
        ),
      onRecent(modern, legacy, legacyStdio),
    );
  });
});
