/**
 * FTS5 writes each commit's terms as a new segment and merges segments as they pile up
 * (`automerge` 4, `crisismerge` 16), so during a first build every posting is rewritten once per
 * merge level. A first build holds those merges back and leaves the one merge to the `optimize`
 * that follows it (search-upkeep.ts): at 100,000 notes the build took ~10 % less CPU (decision
 * 026). The settings persist in the index file, so a build killed half-way leaves them held:
 * `release` runs at every open too, and writes only when they differ from FTS5's defaults.
 */
import type Database from 'better-sqlite3';

const DEFAULTS = { automerge: 4, crisismerge: 16 };
/** Segments per level before FTS5 merges anyway: above the ~200 a 100,000-note build writes. */
const HELD = { automerge: 0, crisismerge: 1_000 };

export interface FtsMerges {
  hold(): void;
  release(): void;
}

export function ftsMerges(db: Database.Database, table: string): FtsMerges {
  // FTS5 takes these only as integer literals (a bound JavaScript number arrives as a real).
  const set = (settings: typeof DEFAULTS) => {
    for (const [key, value] of Object.entries(settings))
      db.exec(`INSERT INTO ${table}(${table}, rank) VALUES('${key}', ${Math.trunc(value)})`);
  };
  return {
    hold: () => set(HELD),
    release: () => {
      const stored = db
        .prepare(`SELECT k, v FROM ${table}_config WHERE k IN ('automerge', 'crisismerge')`)
        .all() as Array<{ k: string; v: number }>;
      if (stored.some(({ k, v }) => v !== DEFAULTS[k as keyof typeof DEFAULTS])) set(DEFAULTS);
    },
  };
}
