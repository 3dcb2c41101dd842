/**
 * `kill -9` of a `serve` process in the middle of a rename that rewrites 200 links: the rename is
 * one transaction in the database (its link rewrites go to the store as one `updateMany`), so
 * whatever the moment of the kill, the database holds it whole or not at all — the title and the
 * 200 links together — and a process opened afterwards (which recovers the dead one's journal
 * entry) sees the same. Several kill delays, and one kill made certain to land inside the rename's
 * transaction (another session holds one linker's row): absent. The outcomes are printed.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadPg, type PgClient, type PgPool } from '../../../backends/postgres/driver.js';
import { callTool, connectHttp, startHttpServer } from '../../support/mcp.js';
import { removeDir, tempDir } from '../../support/temp.js';
import { dropSchema, freshSchema, PG_URL } from '../../support/postgres.js';
import { describePg, type Host, openHost } from '../../unit/postgres-store/helpers.js';

const LINKS = 200;

describePg('kill -9 in the middle of a 200-link rename on the postgres store', () => {
  const schema = freshSchema();
  const folders: string[] = [];
  afterAll(async () => {
    for (const folder of folders) await removeDir(folder);
    await dropSchema(schema);
  });

  async function config(vault: string): Promise<{ folder: string; file: string }> {
    const folder = await tempDir('nk-e2e-pgkill-');
    folders.push(folder);
    const file = path.join(folder, 'notekernel.config.json');
    await fs.writeFile(
      file,
      JSON.stringify({ profile: 'flint', storage: { backend: 'postgres', options: { url: PG_URL, schema, vault } } }),
    );
    return { folder, file };
  }

  /** 'whole', 'absent', or what was seen when it is neither (flint's rename keeps the file name). */
  async function outcome(host: Host): Promise<string> {
    const title = (await host.store.get('general/heron.md'))?.title;
    let rewritten = 0;
    for (let i = 0; i < LINKS; i++)
      if ((await host.store.get(`general/linker-${i}.md`))?.content.includes('[[Grey heron]]')) rewritten += 1;
    if (rewritten === LINKS && title === 'Grey heron') return 'whole';
    if (rewritten === 0 && title === 'Heron') return 'absent';
    return `partial: title "${title}", ${rewritten} of ${LINKS} links rewritten`;
  }

  let raw: PgPool;
  beforeAll(() => {
    const { Pool } = loadPg();
    raw = new Pool({ connectionString: PG_URL, connectionTimeoutMillis: 5_000, application_name: 'nk-test-holder' });
  });
  afterAll(() => raw.end());

  /** A transaction of another session holding one note's row. */
  async function hold(vault: string, id: string): Promise<PgClient> {
    const client = await raw.connect();
    await client.query('BEGIN');
    await client.query(`SELECT 1 FROM "${schema}".notes WHERE vault = $1 AND id = $2 FOR UPDATE`, [vault, id]);
    return client;
  }

  /** Until a notekernel session waits on a row lock: the rename's transaction is open. */
  async function waitingOnLock(): Promise<void> {
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline) {
      const { rows } = await raw.query(
        "SELECT 1 FROM pg_stat_activity WHERE application_name = 'notekernel' AND wait_event_type = 'Lock'",
      );
      if (rows.length) return;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error('the rename never waited on the held row');
  }

  it('leaves the rename whole or absent, for every kill delay, in every process', async () => {
    const seen: string[] = [];
    for (const delay of [60, 120, 180, 260, 400, 3000, 'inside'] as const) {
      const vault = `kill${delay}`;
      const seed = await openHost(schema, vault);
      const target = await seed.store.create({ title: 'Heron', content: 'Birds.' });
      for (let i = 0; i < LINKS; i++)
        await seed.store.create({ title: `Linker ${i}`, content: `Number ${i} points at [[Heron]].` });
      const first = await config(vault);
      const server = await startHttpServer(['--config', first.file, '--vault', first.folder]);
      const client = await connectHttp(server.url);
      // 'inside': one linker's row is held by another session, so the rename's transaction is
      // certainly open — its other rows locked, waiting on that one — when the kill comes.
      const holder = delay === 'inside' ? await hold(vault, 'general/linker-150.md') : undefined;
      const rename = callTool(client, 'rename_note', {
        identifier: target.id,
        new_title: 'Grey heron',
        content_hash: target.contentHash,
      }).catch(() => undefined);
      if (delay === 'inside') await waitingOnLock();
      else await new Promise((r) => setTimeout(r, delay));
      const exited = new Promise((r) => server.child.once('exit', r));
      server.child.kill('SIGKILL');
      await exited;
      // A call cut off by the kill may never settle (the client waits to reconnect).
      await Promise.race([rename, new Promise((r) => setTimeout(r, 500))]);
      // The client's goodbye would wait on a server that is gone.
      await Promise.race([client.close().catch(() => undefined), new Promise((r) => setTimeout(r, 500))]);
      if (holder) {
        await holder.query('ROLLBACK');
        holder.release();
        // The dead server's session ends when it next writes to its socket, its transaction rolled back.
        await new Promise((r) => setTimeout(r, 300));
      }
      const after = await outcome(seed);
      // A process opened afterwards recovers the dead one's journal entry, and agrees.
      const next = await config(vault);
      const reopened = await startHttpServer(['--config', next.file, '--vault', next.folder]);
      const reader = await openHost(schema, vault);
      const recovered = await outcome(reader);
      await reopened.stop();
      await reader.close();
      await seed.close();
      seen.push(
        `${delay === 'inside' ? 'inside its transaction' : `${delay} ms`}: ${after}, after a reopen ${recovered}`,
      );
      expect(after, `killed after ${delay} ms`).toMatch(delay === 'inside' ? /^absent$/ : /^(whole|absent)$/);
      expect(recovered, `killed after ${delay} ms, then reopened`).toMatch(/^(whole|absent)$/);
    }
    console.log(`postgres kill -9 mid-rename (${LINKS} links): ${seen.join('; ')}`);
  }, 180_000);
});
