/**
 * Issue 12: a kill between a write and the search index's update is repaired at the next open.
 * The obsidian profile's hybrid index is a file of its own, brought up to date behind each write
 * by the outbox (kernel/index-outbox.ts), which keeps nothing on disk: the next open's reconcile
 * (kernel/kernel.ts) is the repair. A vault indexed once, then given more notes while no server
 * ran, is served by the built CLI over stdio; NOTES create_file calls go out at once as it
 * starts. The store answers them while the index's updates wait behind its catch-up with those
 * notes, and the server is killed with SIGKILL after KILL_AFTER answers. A read-only look at the
 * index file then counts the note files it does not hold; answered writes must be among them
 * (else the kill is tried again on a fresh vault). A new serve of the same vault must repair it
 * all: every note file found, once, by a keyword search for its own token; the index holding
 * every note, each once; no temp file of a cut write left.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { callTool, connectStdio } from '../support/mcp.js';
import { runCli } from '../support/run-cli.js';
import { removeDir, tempDir } from '../support/temp.js';

/** Notes on disk before the crash serve: the first INDEXED indexed by `notekernel index`, the rest added after (the catch-up at open takes about a second over them). */
const SEED = 2500;
const INDEXED = 500;
/** create_file calls in flight at once. */
const NOTES = 150;
/** Answers after which the server is killed. */
const KILL_AFTER = 20;
const ATTEMPTS = 5;
/** Each new note's bulk (about 30 KB, 30 passages): the writes take long enough to be cut by the kill. */
const FILLER = '\nFiller words about nothing in particular, kept for their length.\n'.repeat(450);

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map(removeDir));
});

const seedPath = (i: number): string => `Seed/Seed ${String(i).padStart(5, '0')}.md`;
const newPath = (i: number): string => `Inbox/Crash ${String(i).padStart(5, '0')}.md`;
const NOTE_PATH = /^(Seed|Inbox)\/(?:Seed|Crash) (\d{5})\.md$/;
/** The word planted in each note; fixed width, so none is a prefix of another. */
function tokenOf(rel: string): string {
  const match = NOTE_PATH.exec(rel);
  if (!match) throw new Error(`not a note of this test: ${rel}`);
  return `${match[1] === 'Seed' ? 'zqseed' : 'zqnew'}${match[2]}x`;
}

interface Vault {
  root: string;
  serve: string[];
  env: Record<string, string>;
}

async function seededVault(): Promise<Vault> {
  const sandbox = await tempDir('nk-outbox-crash-');
  dirs.push(sandbox);
  const root = path.join(sandbox, 'vault');
  fs.mkdirSync(path.join(root, 'Seed'), { recursive: true });
  const seed = (from: number, to: number): void => {
    for (let i = from; i < to; i++)
      fs.writeFileSync(path.join(root, seedPath(i)), `Seed note ${i}: ${tokenOf(seedPath(i))}.\n`);
  };
  const config = path.join(sandbox, 'obsidian.yaml');
  fs.writeFileSync(
    config,
    'profile: obsidian\nsearch:\n  backend: hybrid-search\n  options: { embedder: hashed, embedThreads: 0 }\n',
  );
  const env = { NOTEKERNEL_CONFIG_DIR: path.join(sandbox, 'config') };
  seed(0, INDEXED);
  const first = await runCli(['index', '--config', config, '--vault', root, '--log-level', 'warn'], { env });
  if (first.code !== 0) throw new Error(`index failed:\n${first.stderr}`);
  seed(INDEXED, SEED);
  return { root, serve: ['serve', '--config', config, '--vault', root, '--log-level', 'warn'], env };
}

/** Files under the vault, `/`-separated; hidden folders (.notekernel) only when asked. */
function walk(root: string, hidden: boolean, rel = ''): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(root, rel), { withFileTypes: true })) {
    const child = rel ? `${rel}/${entry.name}` : entry.name;
    if (!entry.isDirectory()) out.push(child);
    else if (hidden || !entry.name.startsWith('.')) out.push(...walk(root, hidden, child));
  }
  return out;
}

const noteFiles = (root: string): string[] =>
  walk(root, false)
    .filter((rel) => rel.endsWith('.md') && !path.basename(rel).startsWith('.'))
    .sort();
const tempFiles = (root: string): string[] =>
  walk(root, true).filter((rel) => path.basename(rel).startsWith('.nk-tmp-'));

/** What the hybrid index file holds, read on a read-only connection (the server may be dead or alive). */
function indexed(root: string): { ids: string[]; chunks: number; duplicateChunks: number; ftsRows: number } {
  const db = new Database(path.join(root, '.notekernel', 'hybrid.db'), { readonly: true, fileMustExist: true });
  try {
    const count = (sql: string): number => (db.prepare(sql).get() as { n: number }).n;
    return {
      ids: (db.prepare('SELECT id FROM notes ORDER BY id').all() as Array<{ id: string }>).map((row) => row.id),
      chunks: count('SELECT count(*) AS n FROM chunks'),
      duplicateChunks: count(
        'SELECT count(*) AS n FROM (SELECT note_id, seq FROM chunks GROUP BY 1, 2 HAVING count(*) > 1)',
      ),
      ftsRows: count('SELECT count(*) AS n FROM chunks_fts'),
    };
  } finally {
    db.close();
  }
}

interface Crash {
  /** Writes whose answer reached the client. */
  answered: string[];
  /** Note files on disk after the kill. */
  onDisk: string[];
  /** Notes the index file holds. */
  held: number;
  /** Those the index file does not hold, and the answered writes among them. */
  missing: string[];
  answeredMissing: string[];
  temps: string[];
}

/** Serves the vault, sends NOTES create_file calls at once and kills the server (SIGKILL) after KILL_AFTER answers. */
async function writeAndKill(vault: Vault): Promise<Crash> {
  const session = await connectStdio(vault.serve, vault.env);
  const pid = session.pid();
  if (pid === null) throw new Error('the server has no pid');
  const answered: string[] = [];
  let killed = false;
  const calls = Array.from({ length: NOTES }, async (_, i) => {
    const rel = newPath(i);
    try {
      const answer = await callTool(session.client, 'create_file', {
        path: rel,
        content: `New note ${i}: ${tokenOf(rel)}.\n${FILLER}`,
      });
      if (answer.isError) throw new Error(`create_file ${rel}: ${JSON.stringify(answer.body)}`);
      answered.push(rel);
      if (answered.length >= KILL_AFTER && !killed) {
        killed = true;
        process.kill(pid, 'SIGKILL');
      }
    } catch (err) {
      // Calls still open when the server died fail with the closed connection.
      if (!killed) throw err;
    }
  });
  const settled = await Promise.allSettled(calls);
  await session.close().catch(() => undefined);
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
  if (!killed)
    throw new Error(
      `only ${answered.length} of ${NOTES} writes were answered and the server was never killed:\n${session.stderr()}`,
    );
  const onDisk = noteFiles(vault.root);
  const held = new Set(indexed(vault.root).ids);
  return {
    answered,
    onDisk,
    held: held.size,
    missing: onDisk.filter((rel) => !held.has(rel)),
    answeredMissing: answered.filter((rel) => !held.has(rel)),
    temps: tempFiles(vault.root),
  };
}

describe('a server killed between note writes and their search index updates', () => {
  it('is repaired at the next open: every note on disk found by search, once', async () => {
    const started = performance.now();
    const tries: string[] = [];
    let hit: (Crash & { vault: Vault }) | undefined;
    for (let attempt = 1; attempt <= ATTEMPTS && !hit; attempt++) {
      const vault = await seededVault();
      const crash = await writeAndKill(vault);
      tries.push(
        `attempt ${attempt}: ${crash.answered.length} of ${NOTES} writes answered, ${crash.onDisk.length} note files on disk, ` +
          `index holding ${crash.held}, ${crash.missing.length} missing from it (${crash.answeredMissing.length} answered), ${crash.temps.length} temp files`,
      );
      // The window: a write answered (its file on disk) whose index update died with the process.
      if (crash.answeredMissing.length > 0) hit = { ...crash, vault };
    }
    console.info(tries.join('\n'));
    if (!hit)
      throw new Error(
        `the kill never fell between an answered write and its index update in ${ATTEMPTS} attempts:\n${tries.join('\n')}`,
      );
    const { vault, onDisk } = hit;
    // Every answered write is on disk, and nothing but the seeded and new notes is.
    expect(hit.answered.filter((rel) => !onDisk.includes(rel))).toEqual([]);
    expect(onDisk.filter((rel) => rel.startsWith('Seed/')).length).toBe(SEED);
    expect(onDisk.filter((rel) => !NOTE_PATH.test(rel))).toEqual([]);

    const session = await connectStdio(vault.serve, vault.env);
    try {
      for (const rel of onDisk) {
        const answer = await callTool(session.client, 'search_vault', {
          query: tokenOf(rel),
          mode: 'keyword',
          n_results: 10,
        });
        expect(answer.isError, JSON.stringify(answer.body)).toBe(false);
        expect(
          (answer.body as { results: Array<{ source: string }> }).results.map((r) => r.source),
          tokenOf(rel),
        ).toEqual([rel]);
      }
      // The index holds every note, each once: one passage and one keyword row per (short) note.
      const after = indexed(vault.root);
      expect(after.ids).toEqual(onDisk);
      expect(after.duplicateChunks).toBe(0);
      expect(after.ftsRows).toBe(after.chunks);
    } finally {
      await session.close();
    }
    expect(noteFiles(vault.root)).toEqual(onDisk);
    expect(tempFiles(vault.root)).toEqual([]);
    console.info(`repaired and checked ${onDisk.length} notes; ${Math.round(performance.now() - started)} ms in all`);
  }, 60_000);
});
