/**
 * Secondary indexes a table can be filled without. A first build fills tables from empty: an
 * index kept row by row writes pages all over its B-tree at every commit, one built afterwards
 * sorts once (at 100,000 notes the note and link indexes were more than half of the build's
 * SQL time, decision 026). Indexes only speed reads up, so a build cut short with them dropped
 * answers the same: `create` runs at every open too and puts them back.
 */
export interface SecondaryIndexes {
  /** Creates every index that is missing (cheap when none is). */
  create(): void;
  drop(): void;
}

/** `definitions`: `name ON table(columns)`, as after `CREATE INDEX`. */
export function secondaryIndexes(run: (sql: string) => unknown, definitions: readonly string[]): SecondaryIndexes {
  const names = definitions.map((d) => d.slice(0, d.indexOf(' ')));
  return {
    create: () => definitions.forEach((d) => run(`CREATE INDEX IF NOT EXISTS ${d}`)),
    drop: () => names.forEach((name) => run(`DROP INDEX IF EXISTS ${name}`)),
  };
}
