/**
 * Who may reach the HTTP server (built server, SDK clients, raw requests): Host and Origin are
 * checked (DNS rebinding), only configured origins pass, one token rule whatever its source, a
 * port in use is one clear line, and the legacy HTTP+SSE transport serves older clients
 * behind the same checks.
 */
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, SSEClientTransport } from '@modelcontextprotocol/client';
import { connectHttp, startHttpServer, type HttpServerProcess } from '../../support/mcp.js';
import { INITIALIZE, jsonOf, rawRequest } from '../../support/raw-http.js';
import { runCli } from '../../support/run-cli.js';
import { removeDir, tempDir } from '../../support/temp.js';

const ALLOWED_ORIGIN = 'https://inspector.example';
let root: string;
let vault: string;
let server: HttpServerProcess;

beforeAll(async () => {
  root = await tempDir('nk-e2e-http-guard-');
  vault = path.join(root, 'vault');
  await fs.mkdir(vault);
  const config = path.join(root, 'notekernel.config.json');
  await fs.writeFile(
    config,
    JSON.stringify({ profile: 'flint', http: { allowedOrigins: [ALLOWED_ORIGIN], allowedHosts: ['notes.internal'] } }),
  );
  server = await startHttpServer(['--config', config, '--vault', vault]);
});

afterAll(async () => {
  await server?.stop();
  await removeDir(root);
});

describe('HTTP Host and Origin checks', () => {
  it('refuses a foreign Host (DNS rebinding) with 403 and a JSON-RPC body', async () => {
    const answer = await rawRequest(server.url, { headers: { host: 'evil.example.com' }, body: INITIALIZE });
    expect(answer.status).toBe(403);
    expect(jsonOf(answer)).toMatchObject({
      jsonrpc: '2.0',
      error: { code: -32000, message: expect.stringMatching(/Host "evil\.example\.com"/) },
    });
  });

  it('accepts loopback names and configured hosts', async () => {
    const port = new URL(server.url).port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `notes.internal:${port}`]) {
      expect((await rawRequest(server.url, { headers: { host }, body: INITIALIZE })).status).toBe(200);
    }
  });

  it('refuses loopback origins on other ports and lets configured origins and its own in', async () => {
    const loopback = await rawRequest(server.url, { headers: { origin: 'http://localhost:9999' }, body: INITIALIZE });
    expect(loopback.status).toBe(403);
    const own = await rawRequest(server.url, { headers: { origin: new URL(server.url).origin }, body: INITIALIZE });
    expect(own.status).toBe(200);
    const rebound = await rawRequest(server.url, {
      headers: { origin: `http://evil.example.com:${new URL(server.url).port}` },
      body: INITIALIZE,
    });
    expect(rebound.status).toBe(403);
    const allowed = await rawRequest(server.url, { headers: { origin: ALLOWED_ORIGIN }, body: INITIALIZE });
    expect(allowed.status).toBe(200);
  });

  it('serves the legacy HTTP+SSE transport to the SDK SSE client', async () => {
    const client = new Client({ name: 'legacy-sse', version: '1' });
    await client.connect(new SSEClientTransport(new URL('/sse', server.url)));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('create_note');
    await client.close();
    const stale = await rawRequest(new URL('/messages?sessionId=nope', server.url).href, {
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    expect(stale.status).toBe(404);
    const foreign = await rawRequest(new URL('/sse', server.url).href, {
      method: 'GET',
      headers: { host: 'evil.example.com' },
    });
    expect(foreign.status).toBe(403);
  });
});

describe('HTTP start-up rules', () => {
  it('refuses a short token from the command line as the config file does, exit 2', async () => {
    const run = await runCli([
      'serve',
      '--http',
      '--host',
      '0.0.0.0',
      '--port',
      '0',
      '--token',
      'abc',
      '--vault',
      vault,
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/at least 16 characters/);
  });

  it('answers only with the bearer token, over Streamable HTTP and legacy SSE', async () => {
    const token = 'a-long-enough-test-token-123456';
    const guarded = await startHttpServer(['--profile', 'flint', '--vault', vault, '--token', token]);
    try {
      const wrong = await rawRequest(guarded.url, { headers: { authorization: 'Bearer x' }, body: INITIALIZE });
      expect(wrong.status).toBe(401);
      const client = await connectHttp(guarded.url, { token });
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
      await client.close();
      const sse = await rawRequest(new URL('/sse', guarded.url).href, { method: 'GET' });
      expect(sse.status).toBe(401);
    } finally {
      expect(await guarded.stop()).toBe(0);
    }
  });

  it('reports a port in use in one line, exit 2', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const run = await runCli(['serve', '--http', '--port', String(port), '--vault', vault], {
        env: { NOTEKERNEL_LOG_LEVEL: 'warn' },
      });
      expect(run.code).toBe(2);
      expect(run.stderr.trim()).toBe(
        `notekernel: config_invalid: Port ${port} on 127.0.0.1 is already in use; pick another with --port (0 picks a free one).`,
      );
    } finally {
      blocker.close();
    }
  });
});
