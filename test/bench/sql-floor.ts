/**
 * The one-writer floor under issue 18's cold-index target: every row of an index that
 * `notekernel index` just built, inserted again into a fresh file by one SQLite connection, with
 * the store's pragmas and its first-build settings (FTS5 merges held, secondary indexes built
 * after the rows, one `optimize` at the end). Set-based (`INSERT … SELECT` from the built file
 * attached), one transaction per 500 notes' rows: no file read, no parsing, no link extraction
 * or resolution, no JavaScript per row. What a build that writes through one connection cannot
 * go below on this machine; the cold-index row divides by it.
 *
 * The FTS rows are the notes' text as stored, not letter-folded: the same tokens for the
 * generated vaults, which are ASCII.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

const NOTES_PER_TRANSACTION = 500;

export interface SqlFloor {
  ms: number;
  /** Milliseconds by step: `rows`, `indexes`, `optimize`. */
  steps: Record<string, number>;
  rows: number;
}

interface SchemaRow {
  type: string;
  name: string;
  sql: string;
}

export function oneWriterFloor(builtIndex: string, workDir: string): SqlFloor {
  const file = path.join(workDir, 'sql-floor.db');
  const remove = () => ['', '-wal', '-shm'].forEach((suffix) => fs.rmSync(file + suffix, { force: true }));
  remove();
  const source = new Database(builtIndex, { readonly: true });
  // Shadow tables of FTS5 come with its CREATE VIRTUAL TABLE; sqlite_* tables are SQLite's own.
  const schema = source
    .prepare(
      "SELECT type, name, sql FROM sqlite_schema WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '%fts_%' ORDER BY rowid",
    )
    .all() as SchemaRow[];
  const fts = schema.filter((r) => r.type === 'table' && /^CREATE VIRTUAL TABLE/i.test(r.sql)).map((r) => r.name);
  const tables = schema.filter((r) => r.type === 'table' && !fts.includes(r.name)).map((r) => r.name);
  const ranges = new Map(
    tables.map((t) => [
      t,
      source.prepare(`SELECT min(rowid) AS lo, max(rowid) AS hi FROM "${t}"`).get() as {
        lo: number | null;
        hi: number | null;
      },
    ]),
  );
  const ftsColumns = new Map(
    fts.map((t) => [t, (source.pragma(`table_info("${t}")`) as Array<{ name: string }>).map((c) => c.name)]),
  );
  source.close();

  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('cache_size = -65536');
    db.pragma('temp_store = MEMORY');
    for (const r of schema) if (r.type === 'table') db.exec(r.sql);
    for (const t of fts)
      db.exec(
        `INSERT INTO "${t}"("${t}", rank) VALUES ('automerge', 0); INSERT INTO "${t}"("${t}", rank) VALUES ('crisismerge', 1000);`,
      );
    db.exec(`ATTACH DATABASE '${builtIndex.replaceAll("'", "''")}' AS built`);

    const steps: Record<string, number> = {};
    const started = performance.now();
    const notes = ranges.get('notes');
    const batches = Math.max(1, Math.ceil(((notes?.hi ?? 0) - (notes?.lo ?? 0) + 1) / NOTES_PER_TRANSACTION));
    // Each table's rowids in as many equal slices as the notes have batches: rows were written in
    // note order, so slice k of every table holds about the rows of notes batch k.
    const copies = tables.map((t) => {
      const { lo, hi } = ranges.get(t) ?? { lo: null, hi: null };
      const span = lo === null || hi === null ? 0 : hi - lo + 1;
      const insert = db.prepare(`INSERT INTO main."${t}" SELECT * FROM built."${t}" WHERE rowid >= ? AND rowid < ?`);
      return (k: number): void => {
        if (!span) return;
        const from = (lo as number) + Math.floor((span * k) / batches);
        insert.run(from, (lo as number) + Math.floor((span * (k + 1)) / batches));
      };
    });
    // The one FTS5 table indexes the notes table (external content): its rows come from there.
    const ftsCopies = fts.map((t) => {
      const columns = (ftsColumns.get(t) ?? []).map((c) => `"${c}"`).join(', ');
      const insert = db.prepare(
        `INSERT INTO main."${t}"(rowid, ${columns}) SELECT rowid, ${columns} FROM built.notes WHERE rowid >= ? AND rowid < ?`,
      );
      const lo = notes?.lo ?? 0;
      return (k: number): void => void insert.run(lo + k * NOTES_PER_TRANSACTION, lo + (k + 1) * NOTES_PER_TRANSACTION);
    });
    let rows = 0;
    const batch = db.transaction((k: number) => {
      for (const copy of copies) copy(k);
      for (const copy of ftsCopies) copy(k);
    });
    for (let k = 0; k < batches; k++) batch(k);
    steps.rows = performance.now() - started;

    let at = performance.now();
    for (const r of schema) if (r.type === 'index') db.exec(r.sql);
    steps.indexes = performance.now() - at;
    at = performance.now();
    for (const t of fts) db.exec(`INSERT INTO main."${t}"("${t}") VALUES ('optimize')`);
    steps.optimize = performance.now() - at;
    const ms = performance.now() - started;
    for (const t of tables) rows += (db.prepare(`SELECT count(*) AS n FROM main."${t}"`).get() as { n: number }).n;
    return { ms, steps, rows };
  } finally {
    db.close();
    remove();
  }
}
