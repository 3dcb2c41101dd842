/**
 * End to end over Streamable HTTP: the built server on 127.0.0.1 and port 0, the SDK's client.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, connectHttp, startHttpServer, type HttpServerProcess } from '../support/mcp.js';
import { runCli } from '../support/run-cli.js';
import { removeDir, tempDir } from '../support/temp.js';

let root: string;
let server: HttpServerProcess;

beforeAll(async () => {
  root = await tempDir('nk-e2e-http-');
  server = await startHttpServer(['--profile', 'flint', '--vault', root]);
});

afterAll(async () => {
  await server?.stop();
  await removeDir(root);
});

describe('flint profile over Streamable HTTP', () => {
  it('binds to loopback by default', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  });

  it('serves tools/list, create_note and get_note, and names the field of bad arguments', async () => {
    const client = await connectHttp(server.url);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['create_note', 'get_note', 'list_note_types']));

    const created = await callTool(client, 'create_note', { title: 'Over HTTP', content: 'hello' });
    expect(created.body).toMatchObject({ id: 'general/over-http.md' });
    const text = await fs.readFile(path.join(root, 'general', 'over-http.md'), 'utf8');
    expect(text).toMatch(/^---\ntitle: Over HTTP\n/);

    const got = await callTool(client, 'get_note', { identifier: 'general/over-http.md' });
    expect(got.body).toMatchObject({
      title: 'Over HTTP',
      content: 'hello',
      content_hash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
    });

    const bad = await callTool(client, 'get_note', {});
    expect(bad.isError).toBe(true);
    expect(bad.body).toMatchObject({ error: 'validation_failed', fields: ['identifier'] });
    await client.close();
  });

  it('refuses a cross-site browser Origin', async () => {
    const response = await fetch(server.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        origin: 'http://evil.example',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
      }),
    });
    expect(response.status).toBe(403);
  });

  it('requires the bearer token when one is set', async () => {
    const token = 'a-long-enough-test-token-123456';
    const guarded = await startHttpServer(['--profile', 'flint', '--vault', root, '--token', token]);
    try {
      await expect(connectHttp(guarded.url)).rejects.toThrow();
      const client = await connectHttp(guarded.url, { token });
      expect((await client.listTools()).tools.length).toBeGreaterThan(0);
      await client.close();
    } finally {
      expect(await guarded.stop()).toBe(0);
    }
  });

  it('refuses to bind beyond loopback without a token, and exits 2', async () => {
    const run = await runCli(['serve', '--http', '--host', '0.0.0.0', '--port', '0', '--vault', root]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/without a bearer token/);
  });
});
