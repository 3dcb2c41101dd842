/**
 * Issue 19, items 3 and 9, end to end over stdio: a FIFO or socket named `*.md` is skipped with
 * a warning and never blocks the server (its answers' times are logged; a blocked open would hang the
 * test); a hard link to a file outside
 * the vault is not read as a note, nor written through.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, connectStdio, type StdioSession } from '../support/mcp.js';
import { removeDir, tempDir } from '../support/temp.js';

let sandbox: string;
let root: string;
let outside: string;
let socket: net.Server;
let session: StdioSession;

beforeAll(async () => {
  sandbox = await tempDir('nk-e2e-files-');
  root = path.join(sandbox, 'vault');
  outside = path.join(sandbox, 'outside', 'secret.md');
  await fs.mkdir(path.join(root, 'general'), { recursive: true });
  await fs.mkdir(path.dirname(outside));
  await fs.writeFile(outside, '---\ntitle: Secret\n---\n\nOUTSIDE-SECRET-TEXT\n');
  await fs.link(outside, path.join(root, 'general', 'hard.md'));
  execFileSync('mkfifo', [path.join(root, 'general', 'fifo.md')]);
  socket = net.createServer().listen(path.join(root, 'general', 'sock.md'));
  await new Promise((resolve) => socket.once('listening', resolve));
  await fs.writeFile(path.join(root, 'general', 'ok.md'), '---\ntitle: Fine\n---\n\nok\n');
  session = await connectStdio(['serve', '--profile', 'flint', '--vault', root]);
});

afterAll(async () => {
  await session?.close();
  socket?.close();
  await removeDir(sandbox);
});

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

describe('special files named *.md', () => {
  it('a FIFO and a socket are skipped: every call answers', async () => {
    await callTool(session.client, 'list_notes_by_type', { type: 'general' }); // the index is built
    for (const identifier of ['general/fifo.md', 'general/sock.md']) {
      const read = await timed(() => callTool(session.client, 'get_note', { identifier }));
      console.info(`get_note ${identifier}: ${Math.round(read.ms)} ms`);
      expect(read.value.isError).toBe(true);
      expect(JSON.stringify(read.value.body)).toContain('not_found');
    }
    const ok = await timed(() => callTool(session.client, 'get_note', { identifier: 'general/ok.md' }));
    expect(ok.value.isError).toBe(false);
    const listed = await timed(() => callTool(session.client, 'list_notes_by_type', { type: 'general' }));
    console.info(`get_note ok.md ${Math.round(ok.ms)} ms, list_notes_by_type ${Math.round(listed.ms)} ms`);
    const text = JSON.stringify(listed.value.body);
    expect(text).toContain('ok.md');
    expect(text).not.toContain('fifo.md');
    expect(text).not.toContain('sock.md');
    expect(session.stderr()).toMatch(/note file skipped[\s\S]*FIFO|FIFO[\s\S]*note file skipped/);
  });

  it('a FIFO created while serving (a race with the scan) does not block either', async () => {
    execFileSync('mkfifo', [path.join(root, 'general', 'late.md')]);
    const read = await timed(() => callTool(session.client, 'get_note', { identifier: 'general/late.md' }));
    console.info(`get_note of a FIFO made while serving: ${Math.round(read.ms)} ms`);
    expect(read.value.isError).toBe(true);
  });
});

describe('a hard link to a file outside the vault', () => {
  it('is not read, listed, searched, nor written through', async () => {
    const read = await callTool(session.client, 'get_note', { identifier: 'general/hard.md' });
    expect(read.isError).toBe(true);
    expect(JSON.stringify(read.body)).not.toContain('OUTSIDE-SECRET-TEXT');
    const listed = await callTool(session.client, 'list_notes_by_type', { type: 'general' });
    expect(JSON.stringify(listed.body)).not.toContain('hard.md');
    const found = await callTool(session.client, 'search_notes', { query: 'OUTSIDE-SECRET-TEXT' });
    expect(JSON.stringify(found.body)).not.toContain('OUTSIDE-SECRET-TEXT');
    const update = await callTool(session.client, 'update_note', {
      identifier: 'general/hard.md',
      content_hash: 'x',
      content: 'overwritten',
    });
    expect(update.isError).toBe(true);
    expect(await fs.readFile(outside, 'utf8')).toContain('OUTSIDE-SECRET-TEXT');
    expect(session.stderr()).toContain('hard-linked');
  });
});
