/**
 * Issue 30's bench (BENCH_ONLY=postgres): a generated flint folder of POSTGRES_BENCH_NOTES notes
 * (10,000 by default; the figure is 100,000) kept two ways on this one machine — imported
 * into a postgres vault (`notekernel import`'s code) and served by fs-sqlite from the folder —
 * then the same work on each: the import (fs-sqlite's is its cold index), an export of the
 * database vault compared file by file with the folder, creates then updates from 4 concurrent
 * writers, keyword search p50/p95, and the feed: commit to announcement in another store instance.
 * Each postgres row's baseline is fs-sqlite's figure in the same run. Needs NOTEKERNEL_TEST_PG_URL
 * (`.ci/postgres start`) or DATABASE_URL; says so and measures nothing without.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fsSqliteBackend, fsSqliteOptions } from '../../backends/fs-sqlite/index.js';
import { postgresBackend, postgresOptions } from '../../backends/postgres/index.js';
import { openPool } from '../../backends/postgres/driver.js';
import { exportVault } from '../../app/vault-copy/export-vault.js';
import { importFolder } from '../../app/vault-copy/import-vault.js';
import { PgImportWriter } from '../../app/vault-copy/pg-writer.js';
import { silentLogger } from '../../kernel/logger.js';
import { type ExternalChange, type NoteStore, refreshStore } from '../../kernel/note-store.js';
import type { SearchIndex } from '../../kernel/search-index.js';
import { generateVault, type GeneratedNote } from '../support/generate-vault.js';
import { fmt, percentile, sample, time, type BenchRow } from './stats.js';

const WRITERS = 4;
const WRITES_EACH = 250;
const SEARCHES = 300;
const FEED_WRITES = 200;

interface Side {
  name: 'postgres' | 'fs-sqlite';
  /** The 4 writers' stores (postgres: one per writer, as separate hosts; fs-sqlite: one shared, one process). */
  writers: NoteStore[];
  search: SearchIndex;
  /** Another store instance on the same vault, whose feed announces the writers' notes. */
  listener: NoteStore;
  close(): Promise<void>;
}

export async function benchPostgresScale(workDir: string): Promise<BenchRow[]> {
  const url = process.env.NOTEKERNEL_TEST_PG_URL ?? process.env.DATABASE_URL;
  if (!url)
    return [info('postgres bench', 'skipped: no NOTEKERNEL_TEST_PG_URL or DATABASE_URL (bash .ci/postgres start)', '')];
  const count = Number.parseInt(process.env.POSTGRES_BENCH_NOTES ?? '10000', 10);
  const source = path.join(workDir, `pg-scale-${count}`);
  const notes = ensureVault(source, count);
  const schema = `nk_bench_${randomBytes(5).toString('hex')}`;
  const options = postgresOptions.parse({ url, schema, vault: 'bench', pollMs: 1_000 });
  const rows: BenchRow[] = [];
  const scratch = fs.mkdtempSync(path.join(workDir, 'pg-scale-run-'));
  try {
    // fs-sqlite: the folder is the vault, so its "import" is a cold index of a copy of it.
    const fsRoot = path.join(scratch, 'fs');
    fs.cpSync(source, fsRoot, { recursive: true });
    const fsOpen = () =>
      fsSqliteBackend.create({
        folder: fsRoot,
        options: fsSqliteOptions.parse({}),
        logger: silentLogger(),
        readOnly: false,
      });
    const fsFirst = await fsOpen();
    const fsIndex = await time(() => refreshStore(fsFirst.store!));
    const writer = await PgImportWriter.open(options, silentLogger());
    const pgImport = await time(() => importFolder(source, writer, { defaultType: 'general' })).finally(() =>
      writer.close(),
    );
    rows.push(
      ratioRow(
        `import, ${count} notes (notes/s; fs-sqlite: cold index of the folder)`,
        pgImport.ms,
        fsIndex.ms,
        (ms) => `${fmt(ms)} (${Math.round(count / (ms / 1000))}/s)`,
      ),
    );

    const pgOpen = async () => {
      const folder = fs.mkdtempSync(path.join(scratch, 'pg-host-'));
      return postgresBackend.create({ folder, options, logger: silentLogger(), readOnly: false });
    };
    const pgHosts = await Promise.all(Array.from({ length: WRITERS + 1 }, pgOpen));
    const exported = path.join(scratch, 'export');
    const pgExport = await time(() => exportVault(pgHosts[0]!.store!, exported));
    rows.push(roundTrip(source, exported, count, pgExport.ms));

    const fsSecond = await fsOpen();
    const sides: Side[] = [
      {
        name: 'postgres',
        writers: pgHosts.slice(0, WRITERS).map((h) => h.store!),
        search: pgHosts[0]!.search!,
        listener: pgHosts[WRITERS]!.store!,
        close: async () => {
          for (const h of pgHosts) {
            await h.search?.close();
            await h.store?.close();
          }
        },
      },
      {
        name: 'fs-sqlite',
        writers: Array.from({ length: WRITERS }, () => fsFirst.store!),
        search: fsFirst.search!,
        listener: fsSecond.store!,
        close: async () => {
          for (const i of [fsFirst, fsSecond]) {
            await i.search?.close();
            await i.store?.close();
          }
        },
      },
    ];
    try {
      const measured = new Map<string, Record<string, number>>();
      for (const side of sides) measured.set(side.name, await measure(side, notes));
      const pg = measured.get('postgres')!;
      const fsq = measured.get('fs-sqlite')!;
      const rate = (n: number) => (ms: number) => `${Math.round(n / (ms / 1000))}/s`;
      const writes = WRITERS * WRITES_EACH;
      rows.push(ratioRow(`create, ${WRITERS} writers × ${WRITES_EACH}`, pg.create!, fsq.create!, rate(writes)));
      rows.push(ratioRow(`update, ${WRITERS} writers × ${WRITES_EACH}`, pg.update!, fsq.update!, rate(writes)));
      for (const key of ['search p50', 'search p95', 'feed p50', 'feed p95'])
        rows.push(ratioRow(`${key}, ${count} notes`, pg[key]!, fsq[key]!, fmt));
      rows.push(
        info(
          'hybrid search p95',
          'n/a: the postgres store declares no vectors (hybrid-search, engine postgres, serves them beside it: BENCH_ONLY=hybrid)',
          '',
        ),
      );
    } finally {
      for (const side of sides) await side.close();
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
    const { pool } = openPool(url, undefined, silentLogger(), 1);
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).finally(() => pool.end());
  }
  return rows;
}

/** Writes, searches and the feed on one side; times in ms. */
async function measure(side: Side, notes: GeneratedNote[]): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  const tag = `${side.name}-${randomBytes(3).toString('hex')}`;
  const ids: string[][] = Array.from({ length: WRITERS }, () => []);
  out.create = (
    await time(() =>
      Promise.all(
        side.writers.map(async (store, w) => {
          for (let i = 0; i < WRITES_EACH; i++) {
            const note = await store.create({
              type: 'bench',
              title: `${tag} writer ${w} note ${i}`,
              content: `Written by writer ${w} of the bench, round ${i}: harbour ferry budget.`,
            });
            ids[w]!.push(note.id);
          }
        }),
      ),
    )
  ).ms;
  out.update = (
    await time(() =>
      Promise.all(
        side.writers.map(async (store, w) => {
          for (const id of ids[w]!) {
            const note = (await store.get(id))!;
            await store.update(id, { content: `${note.content}\nUpdated once.` }, note.contentHash);
          }
        }),
      ),
    )
  ).ms;
  const queries = searchQueries(notes);
  const search = (i: number) => side.search.search({ text: queries[i % queries.length]!, limit: 10 });
  await sample(30, search);
  const searched = await sample(SEARCHES, search);
  out['search p50'] = percentile(searched, 50);
  out['search p95'] = percentile(searched, 95);
  const feed = await feedLatency(side, tag);
  out['feed p50'] = percentile(feed, 50);
  out['feed p95'] = percentile(feed, 95);
  return out;
}

/**
 * From a write's acknowledgement to its announcement in the other instance, one write at a time
 * (an announcement heard before the writer's promise settled counts as 0 ms).
 */
async function feedLatency(side: Side, tag: string): Promise<number[]> {
  const heard = new Map<string, number>();
  const waiting = new Map<string, () => void>();
  const stop = side.listener.watch!((change: ExternalChange) => {
    if (change.kind !== 'written') return;
    // By title: the two stores need not slug a title alike.
    heard.set(change.note.title, performance.now());
    waiting.get(change.note.title)?.();
  });
  await new Promise((r) => setTimeout(r, 500)); // the watcher (inotify, LISTEN) is in place
  const latencies: number[] = [];
  try {
    for (let i = 0; i < FEED_WRITES; i++) {
      const title = `${tag} feed ${i}`;
      const announced = new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`${side.name}: no announcement of "${title}" in 10 s`)),
          10_000,
        );
        waiting.set(title, () => {
          clearTimeout(timer);
          resolve();
        });
      });
      await side.writers[0]!.create({ type: 'bench', title, content: 'Announced to the other instance.' });
      const acked = performance.now();
      if (!heard.has(title)) await announced;
      latencies.push(Math.max(0, heard.get(title)! - acked));
    }
  } finally {
    stop();
  }
  return latencies;
}

/** A remembered phrase, a rare word, a title and a prefix, as search.ts asks (issue 4's typical queries). */
function searchQueries(notes: GeneratedNote[]): string[] {
  const planted = notes.filter((n) => n.phrase).slice(0, 50);
  return planted.flatMap((n, i) => {
    const [marker = '', animal = ''] = (n.phrase ?? '').split(' ');
    const titled = notes[(i * 7919) % notes.length]?.title ?? '';
    return [`"${n.phrase}"`, animal, titled, `${marker.slice(0, marker.length - 1)}*`];
  });
}

function ensureVault(root: string, count: number): GeneratedNote[] {
  const truth = `${root}.truth.json`;
  if (fs.existsSync(truth) && fs.existsSync(root)) return JSON.parse(fs.readFileSync(truth, 'utf8')) as GeneratedNote[];
  fs.rmSync(root, { recursive: true, force: true });
  console.log(`generating ${count} notes in ${root} …`);
  const generated = generateVault(root, count);
  fs.writeFileSync(truth, JSON.stringify(generated.notes));
  return generated.notes;
}

/** The export holds exactly the folder's files, each byte for byte. */
function roundTrip(source: string, exported: string, count: number, ms: number): BenchRow {
  const list = (root: string) =>
    fs
      .readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
      .sort();
  const files = list(source);
  const same =
    JSON.stringify(files) === JSON.stringify(list(exported)) &&
    files.every((f) => fs.readFileSync(path.join(source, f)).equals(fs.readFileSync(path.join(exported, f))));
  return {
    bench: `export, ${count} notes: every file identical to the imported folder`,
    value: `${fmt(ms)} (${Math.round(count / (ms / 1000))}/s)`,
    target: 'identical files',
    baseline: '',
    ratio: same ? 'identical' : 'DIFFERS',
    pass: same,
  };
}

/** A postgres figure beside fs-sqlite's (time in ms; the ratio is postgres ÷ fs-sqlite). */
function ratioRow(bench: string, pg: number, fsq: number, show: (ms: number) => string): BenchRow {
  return {
    bench: `postgres ${bench}`,
    value: show(pg),
    target: '(info)',
    baseline: `fs-sqlite ${show(fsq)}`,
    ratio: `${(pg / fsq).toFixed(2)}× fs-sqlite's time`,
    pass: true,
  };
}

function info(bench: string, value: string, baseline: string): BenchRow {
  return { bench, value, target: '(info)', baseline, ratio: '', pass: true };
}
