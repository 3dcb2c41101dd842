/**
 * The test clients' eras (test/support/mcp.ts) against bare v2 SDK servers that serve both:
 * 'legacy' runs the 2025 initialize handshake, 'modern' pins 2026-07-28, and a modern stdio
 * connect spawns one server process, not the SDK's default of a probe process plus the session's
 * (two notekernel processes would open the same vault at once).
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, connectCommand, connectHttp, type Era } from '../../support/mcp.js';
import { removeDir, tempDir } from '../../support/temp.js';

const SERVER = fileURLToPath(new URL('../../support/modern-stdio-server.mjs', import.meta.url));
const ERAS: Array<[Era, string]> = [
  ['legacy', '2025-11-25'],
  ['modern', '2026-07-28'],
];
let dir: string;
let httpServer: http.Server;
let url: string;

beforeAll(async () => {
  dir = await tempDir('nk-e2e-client-eras-');
  // The same server as modern-stdio-server.mjs, over HTTP: 2026-07-28, and 2025 stateless by default.
  const handler = toNodeHandler(
    createMcpHandler(() => {
      const server = new McpServer({ name: 'modern-http-server', version: '1.0.0' });
      server.registerTool('ping', { description: 'Answers "pong".' }, async () => ({
        content: [{ type: 'text', text: '"pong"' }],
      }));
      return server;
    }),
  );
  httpServer = http.createServer((req, res) => void handler(req, res));
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}/mcp`;
});

afterAll(async () => {
  await new Promise((resolve) => httpServer?.close(resolve));
  await removeDir(dir);
});

describe('test clients by era, over stdio', () => {
  it.each(ERAS)('%s negotiates %s on one server process and calls a tool', async (era, version) => {
    const spawns = path.join(dir, `${era}.pids`);
    const session = await connectCommand(process.execPath, [SERVER], { NK_SPAWN_LOG: spawns }, { era });
    const pid = session.pid();
    try {
      expect(session.client.getProtocolEra()).toBe(era);
      expect(session.client.getNegotiatedProtocolVersion()).toBe(version);
      expect(await callTool(session.client, 'ping')).toEqual({ isError: false, body: 'pong' });
    } finally {
      await session.close();
    }
    expect(fs.readFileSync(spawns, 'utf8').trim().split('\n')).toEqual([String(pid)]);
  });
});

describe('test clients by era, over Streamable HTTP', () => {
  it.each(ERAS)('%s negotiates %s and calls a tool', async (era, version) => {
    const client = await connectHttp(url, { era });
    try {
      expect(client.getProtocolEra()).toBe(era);
      expect(client.getNegotiatedProtocolVersion()).toBe(version);
      expect(await callTool(client, 'ping')).toEqual({ isError: false, body: 'pong' });
    } finally {
      await client.close();
    }
  });
});
