/**
 * Two `notekernel serve --http` processes on one PostgreSQL vault, flint profile, as two hosts
 * would run them (each its own folder for plugin-owned files), driven by the SDK's real MCP client:
 * a note created, read, searched and updated through one is read and found through the other, a
 * stale hash sent to the other is refused, and the server's stderr never shows the password.
 * Needs the built CLI (npm run build) and `.ci/postgres start`.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { callTool, connectHttp, startHttpServer, type HttpServerProcess } from '../../support/mcp.js';
import { removeDir, tempDir } from '../../support/temp.js';
import { dropSchema, freshSchema, PG_URL } from '../../support/postgres.js';
import { describePg } from '../../unit/postgres-store/helpers.js';

describePg('flint on postgres over Streamable HTTP, two server processes', () => {
  const schema = freshSchema();
  const folders: string[] = [];
  const servers: HttpServerProcess[] = [];
  const clients: Client[] = [];
  let one: Client;
  let two: Client;

  async function serve(): Promise<Client> {
    const folder = await tempDir('nk-e2e-pg-');
    folders.push(folder);
    const url = new URL(PG_URL!);
    url.password = 'sekret-pw'; // ignored by the test server's trust authentication; never to be printed
    const config = path.join(folder, 'notekernel.config.json');
    await fs.writeFile(
      config,
      JSON.stringify({
        profile: 'flint',
        storage: { backend: 'postgres', options: { url: url.toString(), schema, vault: 'team' } },
      }),
    );
    const server = await startHttpServer(['--config', config, '--vault', folder, '--log-level', 'info']);
    servers.push(server);
    const client = await connectHttp(server.url);
    clients.push(client);
    return client;
  }

  beforeAll(async () => {
    one = await serve();
    two = await serve();
  }, 60_000);
  afterAll(async () => {
    for (const client of clients) await client.close();
    for (const server of servers) await server.stop();
    for (const folder of folders) await removeDir(folder);
    await dropSchema(schema);
  });

  it('create, get, search and update through one process; read, search and a stale hash through the other', async () => {
    const created = await callTool(one, 'create_note', { title: 'Shared plan', content: 'Osprey survey budget.' });
    expect(created).toMatchObject({ isError: false, body: { id: 'general/shared-plan.md' } });

    const got = await callTool(two, 'get_note', { identifier: 'general/shared-plan.md' });
    expect(got.body).toMatchObject({ title: 'Shared plan', content: 'Osprey survey budget.' });
    const hash = (got.body as { content_hash: string }).content_hash;

    const found = await callTool(two, 'search_notes', { query: 'osprey' });
    expect((found.body as { results: Array<{ id: string }> }).results.map((r) => r.id)).toEqual([
      'general/shared-plan.md',
    ]);

    const updated = await callTool(one, 'update_note', {
      identifier: 'general/shared-plan.md',
      content: 'Osprey and kestrel survey budget.',
      content_hash: hash,
    });
    expect(updated.isError).toBe(false);
    const reread = await callTool(two, 'get_note', { identifier: 'general/shared-plan.md' });
    expect(reread.body).toMatchObject({
      content: 'Osprey and kestrel survey budget.',
      content_hash: (updated.body as { content_hash: string }).content_hash,
    });
    const kestrel = await callTool(two, 'search_notes', { query: 'kestrel' });
    expect((kestrel.body as { total: number }).total).toBe(1);

    const stale = await callTool(two, 'update_note', {
      identifier: 'general/shared-plan.md',
      content: 'a lost update',
      content_hash: hash,
    });
    expect(stale).toMatchObject({ isError: true, body: { error: 'content_hash_mismatch' } });

    for (const server of servers) expect(server.stderr()).not.toContain('sekret-pw');
  });

  it("the other process's derived views follow the feed: backlinks appear and go with the linking note", async () => {
    await callTool(one, 'create_note', { title: 'Target', content: 'Linked to.' });
    const source = await callTool(one, 'create_note', { title: 'Source', content: 'See [[Target]].' });
    const backlinks = async () =>
      JSON.stringify((await callTool(two, 'get_backlinks', { identifier: 'general/target.md' })).body);
    const until = async (check: () => Promise<boolean>) => {
      const deadline = Date.now() + 5_000;
      while (!(await check())) {
        if (Date.now() > deadline) throw new Error(`the other process never saw it: ${await backlinks()}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    await until(async () => (await backlinks()).includes('general/source.md'));
    const hash = (
      (await callTool(one, 'get_note', { identifier: 'general/source.md' })).body as { content_hash: string }
    ).content_hash;
    expect(source.isError).toBe(false);
    await callTool(one, 'delete_note', { identifier: 'general/source.md', content_hash: hash, confirm: true });
    await until(async () => !(await backlinks()).includes('general/source.md'));
  });
});
