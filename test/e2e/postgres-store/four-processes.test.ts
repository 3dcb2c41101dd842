import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { callTool, connectHttp, startHttpServer, type HttpServerProcess } from '../../support/mcp.js';
import { removeDir } from '../../support/temp.js';
import { dropSchema, freshSchema, postgresVaultFolder } from '../../support/postgres.js';
import { describePg } from '../../unit/postgres-store/helpers.js';

describePg('four serve processes on one PostgreSQL vault', () => {
  const schema = freshSchema();
  const folders: string[] = [];
  const servers: HttpServerProcess[] = [];
  const clients: Client[] = [];

  beforeAll(async () => {
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        const { folder, config } = await postgresVaultFolder('nk-e2e-pg4-', { schema, vault: 'four' });
        folders.push(folder);
        const server = await startHttpServer(['--config', config, '--vault', folder]);
        servers.push(server);
        clients.push(await connectHttp(server.url));
      }),
    );
  }, 90_000);
  afterAll(async () => {
    for (const client of clients) await client.close();
    for (const server of servers) await server.stop();
    for (const folder of folders) await removeDir(folder);
    await dropSchema(schema);
  });

  type Body = { content_hash: string; content: string; error?: string; results?: Array<{ id: string }> };
  const get = async (client: Client) =>
    (await callTool(client, 'get_note', { identifier: 'general/contended.md' })).body as Body;

  it('50 rounds of one update with one hash sent to all four: one winner each, all four agree', async () => {
    await callTool(clients[0]!, 'create_note', { title: 'Contended', content: 'round 0' });
    let hash = (await get(clients[1]!)).content_hash;
    const timings: number[] = [];
    for (let round = 1; round <= 50; round++) {
      const started = performance.now();
      const answers = await Promise.all(
        clients.map((client, p) =>
          callTool(client, 'update_note', {
            identifier: 'general/contended.md',
            content: `round ${round} from process ${p} token${round}x`,
            content_hash: hash,
          }),
        ),
      );
      timings.push(performance.now() - started);
      const won = answers.filter((a) => !a.isError);
      expect(won, `round ${round}`).toHaveLength(1);
      for (const lost of answers.filter((a) => a.isError))
        expect((lost.body as Body).error, `round ${round}`).toBe('content_hash_mismatch');
      const reads = await Promise.all(clients.map(get));
      hash = reads[0]!.content_hash;
      for (const read of reads) {
        expect(read.content_hash).toBe((won[0]!.body as Body).content_hash);
        expect(read.content).toMatch(new RegExp(`^round ${round} from process \\d token${round}x$`));
      }
      for (const client of clients) {
        const found = (await callTool(client, 'search_notes', { query: `token${round}x` })).body as Body;
        expect(found.results?.map((r) => r.id)).toEqual(['general/contended.md']);
      }
    }
    timings.sort((a, b) => a - b);
    console.log(
      `postgres, 4 serve processes: 50 rounds of 4 same-hash update_note calls: median ${timings[25]!.toFixed(1)} ms, p95 ${timings[47]!.toFixed(1)} ms per round`,
    );
  }, 120_000);

  it('a note created through one process is found by search through each other at once', async () => {
    for (const [p, client] of clients.entries()) {
      await callTool(client, 'create_note', { title: `From process ${p}`, content: `marker${p}q` });
      for (const other of clients) {
        const found = (await callTool(other, 'search_notes', { query: `marker${p}q` })).body as Body;
        expect(found.results?.map((r) => r.id)).toEqual([`general/from-process-${p}.md`]);
      }
    }
  });
});
