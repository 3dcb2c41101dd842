/**
 * The bench's floors are baselines that issue 18's rows are divided by: they must copy every row
 * of a real index (sql-floor.ts) and rank with the store's own FTS5 expressions (keyword-floor.ts),
 * or the ratios they print mean nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bm25Floor } from '../../bench/keyword-floor.js';
import { oneWriterFloor } from '../../bench/sql-floor.js';
import { generateObsidianVault } from '../../support/generate-obsidian-vault.js';
import { createTestKernel, removeDir, tempDir } from '../../support/temp.js';

let root: string;
let work: string;
let indexFile: string;

beforeAll(async () => {
  root = await tempDir('nk-floor-');
  work = await tempDir('nk-floor-work-');
  generateObsidianVault(root, 300);
  const test = await createTestKernel({ root, init: false });
  // The refresh at open builds notes, links and tags in one pass; a link query waits for it.
  await test.vault.call('search_notes', { query: 'project' });
  await test.vault.call('find_broken_links', {});
  await test.close();
  indexFile = path.join(root, '.flint-note', 'notekernel.db');
});

afterAll(async () => {
  await removeDir(root);
  await removeDir(work);
});

describe('the one-writer SQL floor', () => {
  it('writes every row of every table of the built index again, and leaves no file behind', () => {
    const db = new Database(indexFile, { readonly: true });
    const tables = db
      .prepare(
        "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '%fts%'",
      )
      .pluck()
      .all() as string[];
    const expected = tables.reduce(
      (sum, t) => sum + (db.prepare(`SELECT count(*) FROM "${t}"`).pluck().get() as number),
      0,
    );
    const links = db.prepare('SELECT count(*) FROM note_links').pluck().get() as number;
    db.close();
    expect(links).toBeGreaterThan(0);

    const floor = oneWriterFloor(indexFile, work);
    expect(floor.rows).toBe(expected);
    expect(Object.keys(floor.steps)).toEqual(['rows', 'indexes', 'optimize']);
    expect(floor.ms).toBeGreaterThan(0);
    expect(fs.readdirSync(work)).toEqual([]);
  });
});

describe('the bm25 floor', () => {
  it('times the ranked queries and counts a query most notes match as 0 ms', () => {
    const db = new Database(indexFile, { readonly: true });
    const notes = db.prepare('SELECT count(*) FROM notes').pluck().get() as number;
    const budget = db.prepare("SELECT count(*) FROM notes_fts WHERE notes_fts MATCH 'budget'").pluck().get() as number;
    db.close();
    // The generator (seeded) puts its common words in most notes, as the bench's `budget` query relies on.
    expect(budget * 2).toBeGreaterThanOrEqual(notes);
    expect(bm25Floor(indexFile, ['budget'], 1)).toEqual({ p95: 0, p50: 0 });
    const ranked = bm25Floor(indexFile, ['"no such phrase anywhere"', 'quasar', 'Quas*'], 3);
    expect(ranked.p95).toBeGreaterThan(0);
    expect(ranked.p95).toBeGreaterThanOrEqual(ranked.p50);
  });
});
