/**
 * Streamable HTTP sessions end to end (the built server, the SDK's client, raw requests for
 * what a client never sends): a stale session id gets 404 with a JSON-RPC body and the client
 * initializes again; idle sessions expire; thousands of abandoned initializes stay bounded.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { connectHttp, startHttpServer, type HttpServerProcess } from '../../support/mcp.js';
import { INITIALIZE, jsonOf, rawRequest } from '../../support/raw-http.js';
import { removeDir, tempDir } from '../../support/temp.js';

let root: string;
let server: HttpServerProcess;
// 10,000 take about 25 s on a shared 2-core machine; NK_ABANDONED_SESSIONS sets another count.
const ABANDONED = Number(process.env.NK_ABANDONED_SESSIONS ?? 10_000);

beforeAll(async () => {
  root = await tempDir('nk-e2e-http-sessions-');
  await fs.mkdir(path.join(root, 'vault'));
  const config = path.join(root, 'notekernel.config.json');
  await fs.writeFile(config, JSON.stringify({ profile: 'flint', http: { sessionIdleSeconds: 2, maxSessions: 50 } }));
  server = await startHttpServer(['--config', config, '--vault', path.join(root, 'vault')], {
    NODE_OPTIONS: '--max-old-space-size=64',
  });
});

afterAll(async () => {
  await server?.stop();
  await removeDir(root);
});

async function rssKb(pid: number): Promise<number> {
  const status = await fs.readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
}

describe('HTTP shutdown', () => {
  it('answers a call in flight at SIGTERM before the server exits', async () => {
    const vault = await tempDir('nk-e2e-http-drain-');
    const own = await startHttpServer(['--profile', 'flint', '--vault', vault]);
    try {
      const client = await connectHttp(own.url);
      let signalled = 0;
      const exited = new Promise<number | null>((resolve) => own.child.once('exit', resolve));
      const notes = Array.from({ length: 1000 }, (_, i) => ({ title: `Drained ${i}`, content: `body ${i}` }));
      const result = await client.callTool(
        { name: 'create_note', arguments: { notes } },
        {
          timeout: 60_000,
          onprogress: (p) => {
            if (!signalled && p.progress > 0) {
              signalled = Date.now();
              own.child.kill('SIGTERM');
            }
          },
        },
      );
      const answeredMs = Date.now() - signalled;
      expect(signalled).toBeGreaterThan(0);
      expect(result.structuredContent).toMatchObject({ total: 1000, successful: 1000 });
      expect(await exited).toBe(0);
      process.stderr.write(
        `http drain: answered ${answeredMs} ms, exited ${Date.now() - signalled} ms after SIGTERM\n`,
      );
      expect(own.stderr()).not.toMatch(/database connection is not open/);
    } finally {
      await own.stop();
      await removeDir(vault);
    }
  }, 120_000);
});

describe('HTTP sessions', () => {
  it('answers a deleted session with 404 and a JSON-RPC error; the client initializes again', async () => {
    const client = await connectHttp(server.url);
    const transport = client.transport as StreamableHTTPClientTransport;
    const stale = transport.sessionId as string;
    await transport.terminateSession();
    const answer = await rawRequest(server.url, {
      headers: { 'mcp-session-id': stale },
      body: { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    });
    expect(answer.status).toBe(404);
    expect(jsonOf(answer)).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32001, message: expect.stringMatching(/initialize again/) },
    });
    await client.close();

    const again = await connectHttp(server.url);
    expect((await again.listTools()).tools.length).toBeGreaterThan(0);
    await again.close();
  });

  it('answers an unknown session id with 404', async () => {
    const answer = await rawRequest(server.url, {
      headers: { 'mcp-session-id': 'no-such-session' },
      body: { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    });
    expect(answer.status).toBe(404);
    expect(jsonOf(answer).error?.code).toBe(-32001);
  });

  it('expires an idle session (http.sessionIdleSeconds) with 404', async () => {
    const init = await rawRequest(server.url, { body: INITIALIZE });
    const id = init.headers['mcp-session-id'] as string;
    expect(init.status).toBe(200);
    const fresh = await rawRequest(server.url, {
      headers: { 'mcp-session-id': id, 'mcp-protocol-version': '2025-06-18' },
      body: { jsonrpc: '2.0', method: 'notifications/initialized' },
    });
    expect(fresh.status).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    const expired = await rawRequest(server.url, {
      headers: { 'mcp-session-id': id },
      body: { jsonrpc: '2.0', id: 3, method: 'tools/list' },
    });
    expect(expired.status).toBe(404);
  });

  it(`keeps memory bounded across ${ABANDONED} abandoned sessions (heap capped at 64 MB)`, async () => {
    const pid = server.child.pid as number;
    const rss = [await rssKb(pid)];
    const started = Date.now();
    let next = 0;
    const worker = async (limit: number) => {
      while (next < limit) {
        next++;
        const answer = await rawRequest(server.url, { body: INITIALIZE });
        if (answer.status !== 200) throw new Error(`initialize ${next} answered ${answer.status}: ${answer.body}`);
      }
    };
    // In quarters, sampling the server's resident memory after each: it must level off.
    for (let q = 1; q <= 4; q++) {
      const limit = Math.round((ABANDONED * q) / 4);
      await Promise.all(Array.from({ length: 8 }, () => worker(limit)));
      rss.push(await rssKb(pid));
    }
    const before = rss[0] as number;
    const after = rss[4] as number;
    process.stderr.write(
      `abandoned sessions: ${ABANDONED} in ${Date.now() - started} ms; server RSS MB by quarter: ${rss.map((kb) => Math.round(kb / 1024)).join(' → ')}\n`,
    );
    expect(server.child.exitCode).toBeNull();
    const client = await connectHttp(server.url);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await client.close();
    expect(after - before).toBeLessThan(64 * 1024);
    // The last half adds (almost) nothing: the session cap holds.
    expect(after - (rss[2] as number)).toBeLessThan(16 * 1024);
  }, 300_000);
});
