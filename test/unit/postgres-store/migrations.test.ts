/**
 * Migrations at open: many processes opening one new schema at once apply each step exactly once
 * (the advisory lock), a schema newer than this code is refused, and `migrate: false` refuses a
 * schema that is behind instead of changing it.
 */
import { afterAll, expect, it } from 'vitest';
import { loadPg, type PgPool } from '../../../backends/postgres/driver.js';
import { LATEST_VERSION, MIGRATIONS, migrate, schemaVersion } from '../../../backends/postgres/migrations.js';
import { describePg, dropSchema, freshSchema, openHost, PG_URL, vaultName } from './helpers.js';

describePg('postgres backend: schema migrations', () => {
  const schemas: string[] = [];
  const fresh = () => {
    const schema = freshSchema();
    schemas.push(schema);
    return schema;
  };
  const pools: PgPool[] = [];
  const pool = () => {
    const { Pool } = loadPg();
    const opened = new Pool({ connectionString: PG_URL, connectionTimeoutMillis: 5_000, application_name: 'nk-test' });
    pools.push(opened);
    return opened;
  };
  afterAll(async () => {
    for (const p of pools) await p.end();
    for (const schema of schemas) await dropSchema(schema);
  });

  it('six opens of one new schema at once, each on its own connections: every step applied once', async () => {
    const schema = fresh();
    const vault = vaultName();
    const hosts = await Promise.all(Array.from({ length: 6 }, () => openHost(schema, vault)));
    try {
      const rows = await pool().query<{ version: number }>(
        `SELECT version FROM "${schema}".schema_version ORDER BY version`,
      );
      expect(rows.rows.map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
      // Every host works on the one schema they made together.
      const note = await hosts[0]!.store.create({ title: 'Made once', content: 'x' });
      for (const host of hosts) expect((await host.store.get(note.id))?.contentHash).toBe(note.contentHash);
    } finally {
      await Promise.all(hosts.map((h) => h.close()));
    }
  });

  it('migrate reports what it applied, and nothing the second time', async () => {
    const schema = fresh();
    const p = pool();
    expect(await schemaVersion(p, schema)).toBe(0);
    const first = await migrate(p, schema);
    expect(first).toMatchObject({ from: 0, to: LATEST_VERSION });
    expect(first.applied.map((a) => a.version)).toEqual(MIGRATIONS.map((m) => m.version));
    expect(await migrate(p, schema)).toEqual({ from: LATEST_VERSION, to: LATEST_VERSION, applied: [] });
    expect(await schemaVersion(p, schema)).toBe(LATEST_VERSION);
  });

  it('a schema newer than this code is refused, naming both versions', async () => {
    const schema = fresh();
    const p = pool();
    await migrate(p, schema);
    await p.query(`INSERT INTO "${schema}".schema_version (version, description) VALUES ($1, 'from the future')`, [
      LATEST_VERSION + 1,
    ]);
    await expect(openHost(schema, vaultName())).rejects.toMatchObject({
      code: 'backend_unavailable',
      details: { schema_version: LATEST_VERSION + 1, known_version: LATEST_VERSION },
    });
  });

  it('migrate: false refuses a schema that is behind and leaves it as it is', async () => {
    const schema = fresh();
    await expect(openHost(schema, vaultName(), { migrate: false })).rejects.toMatchObject({
      code: 'backend_unavailable',
      message: expect.stringContaining('notekernel migrate-db'),
    });
    expect(await schemaVersion(pool(), schema)).toBe(0);
  });
});
