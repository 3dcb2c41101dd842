/**
 * The role backends/postgres/README.md documents: an owner role migrates, a role holding only
 * the grants listed there serves (with `migrate: false`) — writes, search, the feed and the journal
 * all work, and it cannot change the schema.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadPg, type PgPool } from '../../../backends/postgres/driver.js';
import { migrate } from '../../../backends/postgres/migrations.js';
import type { ExternalChange } from '../../../kernel/backend.js';
import { describePg, dropSchema, freshSchema, type Host, openHost, PG_URL, until, vaultName } from './helpers.js';

describePg('postgres backend: the least-privileged serving role', () => {
  const schema = freshSchema();
  const role = `nk_app_${schema.slice(-8)}`;
  let admin: PgPool;
  const hosts: Host[] = [];

  beforeAll(async () => {
    const { Pool } = loadPg();
    admin = new Pool({ connectionString: PG_URL, connectionTimeoutMillis: 5_000, application_name: 'nk-test' });
    await migrate(admin, schema);
    // The grants exactly as the README gives them, with the schema and role of this test.
    const readme = fs.readFileSync(new URL('../../../backends/postgres/README.md', import.meta.url), 'utf8');
    const grants = /```sql\n([\s\S]*?)```/
      .exec(readme)![1]!
      .replaceAll('notekernel', schema)
      .replaceAll('notes_app', role);
    await admin.query(`CREATE ROLE ${role} LOGIN`);
    for (const statement of grants.split(';').filter((s) => s.trim())) await admin.query(statement);
  });
  afterAll(async () => {
    for (const host of hosts) await host.close();
    await dropSchema(schema);
    await admin.query(`DROP OWNED BY ${role}`).catch(() => undefined);
    await admin.query(`DROP ROLE IF EXISTS ${role}`);
    await admin.end();
  });

  it('serves writes, search, the feed and the journal, and cannot change the schema', async () => {
    const url = new URL(PG_URL!);
    url.username = role;
    const vault = vaultName();
    const here = await openHost(schema, vault, { url: url.toString(), migrate: false });
    const there = await openHost(schema, vault, { url: url.toString(), migrate: false });
    hosts.push(here, there);
    const seen: ExternalChange[] = [];
    here.store.watch((change) => seen.push(change));
    const note = await there.store.create({ title: 'Granted', content: 'least privilege' });
    const updated = await there.store.update(note.id, { content: 'still least privilege' }, note.contentHash);
    expect((await here.search.search({ text: 'privilege', limit: 5 })).hits.map((h) => h.id)).toEqual([note.id]);
    await until(
      () => seen.some((c) => c.kind === 'written' && c.note.contentHash === updated.contentHash),
      5_000,
      'the feed',
    );
    const entry = { id: '20260101T000000000Z-test', state: 'pending', results: [] };
    await here.store.journal.begin(entry);
    here.store.journal.progress(entry.id, 0, { done: true });
    await here.store.journal.finish({ ...entry, state: 'done' });
    expect((await there.store.journal.list()).map((e) => e.state)).toEqual(['done']);
    expect(await there.store.journal.unfinished()).toEqual([]);
    const { Pool } = loadPg();
    const app = new Pool({
      connectionString: url.toString(),
      connectionTimeoutMillis: 5_000,
      application_name: 'nk-test',
    });
    try {
      await expect(app.query(`CREATE TABLE "${schema}".intruder (x int)`)).rejects.toMatchObject({ code: '42501' });
    } finally {
      await app.end();
    }
  });
});
