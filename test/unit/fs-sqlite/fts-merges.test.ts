import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { ftsMerges } from '../../../backends/fs-sqlite/fts-merges.js';

const settings = (db: Database.Database) =>
  Object.fromEntries(
    (
      db.prepare("SELECT k, v FROM f_config WHERE k IN ('automerge', 'crisismerge')").all() as Array<{
        k: string;
        v: number;
      }>
    ).map((r) => [r.k, r.v]),
  );

describe('ftsMerges', () => {
  it('holds merges back during a bulk load, puts the defaults back, and writes nothing when they are in place', () => {
    const db = new Database(':memory:');
    db.exec('CREATE VIRTUAL TABLE f USING fts5(a)');
    const merges = ftsMerges(db, 'f');
    merges.release();
    expect(settings(db)).toEqual({}); // a fresh table holds FTS5's defaults implicitly
    merges.hold();
    expect(settings(db)).toEqual({ automerge: 0, crisismerge: 1000 });
    // Many commits while held: the segments are kept apart until an optimize.
    for (let i = 0; i < 40; i++) db.prepare('INSERT INTO f(a) VALUES (?)').run(`word${i} common`);
    const segments = () => (db.prepare('SELECT count(*) AS n FROM f_data WHERE id > 10').get() as { n: number }).n;
    expect(segments()).toBeGreaterThanOrEqual(40);
    merges.release();
    expect(settings(db)).toEqual({ automerge: 4, crisismerge: 16 });
    const before = db.prepare('SELECT total_changes() AS n').get() as { n: number };
    merges.release();
    expect((db.prepare('SELECT total_changes() AS n').get() as { n: number }).n).toBe(before.n);
    db.exec("INSERT INTO f(f) VALUES('optimize')");
    expect(segments()).toBeLessThan(5);
    expect(db.prepare("SELECT count(*) AS n FROM f WHERE f MATCH 'common'").get()).toEqual({ n: 40 });
  });
});
