/**
 * The test clients' eras (test/support/mcp.ts) against a bare v2 SDK server that serves both:
 * 'legacy' runs the 2025 initialize handshake, 'modern' pins 2026-07-28, and a modern stdio
 * connect spawns one server process, not the SDK's default of a probe process plus the session's
 * (two notekernel processes would open the same vault at once).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, connectCommand, type Era } from '../../support/mcp.js';
import { removeDir, tempDir } from '../../support/temp.js';

const SERVER = fileURLToPath(new URL('../../support/modern-stdio-server.mjs', import.meta.url));
let dir: string;

beforeAll(async () => {
  dir = await tempDir('nk-e2e-client-eras-');
});

afterAll(async () => {
  await removeDir(dir);
});

describe('test clients by era, over stdio', () => {
  it.each([
    ['legacy', '2025-11-25'],
    ['modern', '2026-07-28'],
  ] as Array<[Era, string]>)('%s negotiates %s on one server process and calls a tool', async (era, version) => {
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
