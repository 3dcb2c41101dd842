/**
 * A load soak against the built `notekernel serve --http`: several real SDK clients run a mix of
 * reads, searches, creates and updates on a generated vault while the server's resident memory
 * is sampled from /proc. Every client also drops its session and opens a new one now and then,
 * as restarted agents do, so per-session state is exercised too.
 */
import fs from 'node:fs';
import type { Client } from '@modelcontextprotocol/client';
import { generateVault } from './generate-vault.js';
import { callTool, connectHttp, startHttpServer } from './mcp.js';

export interface SoakOptions {
  root: string;
  notes: number;
  clients: number;
  durationMs: number;
  sampleMs?: number;
  /** Each client opens a new session after this many calls. */
  callsPerSession?: number;
}

export interface SoakReport {
  /** [seconds since the load began, RSS in MB] */
  rss: Array<[number, number]>;
  calls: number;
  failed: number;
  failures: string[];
  sessions: number;
  p50Ms: number;
  p99Ms: number;
  callsPerSecond: number;
  serverStderr: string;
}

export function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 102.4) / 10;
}

export async function runSoak(options: SoakOptions): Promise<SoakReport> {
  const generated = generateVault(options.root, options.notes);
  const ids = generated.notes.map((n) => n.id);
  const server = await startHttpServer(['--profile', 'flint', '--vault', options.root, '--log-level', 'warn']);
  const pid = server.child.pid as number;
  // The clock starts once the opening index build is done: a search waits for it.
  const first = await connectHttp(server.url);
  await callTool(first, 'search_notes', { query: 'plan', limit: 1 });
  await first.close();
  const latencies: number[] = [];
  const failures: string[] = [];
  let sessions = 0;
  const started = Date.now();
  const rss: Array<[number, number]> = [[0, rssMb(pid)]];
  const sampler = setInterval(
    () => rss.push([Math.round((Date.now() - started) / 1000), rssMb(pid)]),
    options.sampleMs ?? 1000,
  );
  const deadline = started + options.durationMs;

  const worker = async (n: number) => {
    let client: Client | undefined;
    let calls = 0;
    let own = 0;
    const created: string[] = [];
    try {
      while (Date.now() < deadline) {
        if (!client || calls >= (options.callsPerSession ?? 200)) {
          await client?.close();
          client = await connectHttp(server.url);
          sessions++;
          calls = 0;
        }
        const before = Date.now();
        const step = own++;
        const error = await oneCall(client, n, step, ids, created);
        latencies.push(Date.now() - before);
        calls++;
        if (error && failures.length < 20) failures.push(error);
        else if (error) failures.push('…');
      }
    } finally {
      await client?.close();
    }
  };
  try {
    await Promise.all(Array.from({ length: options.clients }, (_, n) => worker(n)));
  } finally {
    clearInterval(sampler);
    rss.push([Math.round((Date.now() - started) / 1000), rssMb(pid)]);
    await server.stop();
  }
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return {
    rss,
    calls: latencies.length,
    failed: failures.length,
    failures: failures.slice(0, 20),
    sessions,
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    callsPerSecond: Math.round(latencies.length / ((Date.now() - started) / 1000)),
    serverStderr: server.stderr(),
  };
}

const WORDS = [
  'plan',
  'project',
  'meeting',
  'review',
  'design',
  'agent memory',
  'search query',
  'deadline',
  'customer feedback',
  'release',
];

/**
 * One call of the mix; answers the failure's description, or undefined. Every other create is a
 * delete of this worker's oldest note, so the vault keeps its size: a vault that grew by half
 * (at 220 calls/s, 13,000 notes in 10 minutes) grows every index with it, which says nothing
 * about whether caches are bounded.
 */
async function oneCall(
  client: Client,
  worker: number,
  step: number,
  ids: string[],
  created: string[],
): Promise<string | undefined> {
  const id = ids[(worker * 7919 + step * 104_729) % ids.length] as string;
  const word = WORDS[(worker + step) % WORDS.length] as string;
  const kind = step % 10;
  let name = '';
  let args: Record<string, unknown> = {};
  if (kind <= 2) [name, args] = ['get_note', { identifier: id }];
  else if (kind <= 4) [name, args] = ['search_notes', { query: word, limit: 20 }];
  else if (kind === 5)
    [name, args] = [
      'search_notes_advanced',
      { type: 'projects', metadata_filters: [{ key: 'priority', operator: '>=', value: 3 }], limit: 20 },
    ];
  else if (kind === 6) [name, args] = ['get_backlinks', { identifier: id }];
  else if (kind === 7 && step % 20 === 17 && created.length > 0)
    [name, args] = ['delete_note', { identifier: created.shift(), confirm: true }];
  else if (kind === 7)
    [name, args] = [
      'create_note',
      {
        type: 'general',
        title: `Soak ${worker} ${step}`,
        content: `soak note, links to [[${id.replace(/\.md$/, '')}]] #soak`,
      },
    ];
  else if (kind === 8) {
    const read = await callTool(client, 'get_note', { identifier: id });
    const hash = (read.body as { content_hash?: string }).content_hash;
    [name, args] = [
      'update_note',
      { identifier: id, content_hash: hash, content: `updated by ${worker} at ${step}\n\nabout ${word}` },
    ];
  } else [name, args] = ['list_notes_by_type', { type: 'daily', limit: 20 }];
  try {
    const answer = await callTool(client, name, args);
    if (name === 'create_note' && !answer.isError) created.push((answer.body as { id: string }).id);
    // Two clients may update one note at once: the loser's hash conflict is the right answer.
    if (answer.isError && !(name === 'update_note' && JSON.stringify(answer.body).includes('content_hash')))
      return `${name}: ${JSON.stringify(answer.body).slice(0, 200)}`;
  } catch (err) {
    return `${name}: ${(err as Error).message}`;
  }
  return undefined;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/**
 * RSS just after warm-up against RSS at the end, each the median of a window (a quarter of what
 * follows warm-up), so one sample taken before or after a garbage collection decides nothing.
 */
export function growthAfter(
  report: SoakReport,
  warmUpSeconds: number,
): { atWarmUp: number; highest: number; end: number } {
  const after = report.rss.filter(([s]) => s >= warmUpSeconds).map(([, mb]) => mb);
  const window = Math.max(1, Math.floor(after.length / 4));
  return { atWarmUp: median(after.slice(0, window)), highest: Math.max(...after), end: median(after.slice(-window)) };
}
