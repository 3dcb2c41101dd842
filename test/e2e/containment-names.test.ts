/**
 * Issue 19, item 6, end to end over stdio: temp files a killed write left in agent-memory are
 * swept at the next open (older than the process and not held); Windows-reserved names and
 * names ending in a dot or space are refused by flint as zettelkasten refuses them.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { callTool, connectStdio, type StdioSession } from '../support/mcp.js';
import { removeDir, tempDir } from '../support/temp.js';

const dirs: string[] = [];
const sessions: StdioSession[] = [];
afterAll(async () => {
  await Promise.all(sessions.map((s) => s.close()));
  await Promise.all(dirs.map(removeDir));
});

async function serve(args: string[]): Promise<StdioSession> {
  const session = await connectStdio(['serve', ...args]);
  sessions.push(session);
  return session;
}

describe('agent-memory: temp files of interrupted writes', () => {
  it('are swept by the opening scan (before any entry is served) when their writer is gone or they are stale; a fresh one of a live writer stays', async () => {
    const root = await tempDir('nk-e2e-temps-');
    dirs.push(root);
    await fs.mkdir(path.join(root, 'archive'));
    const hourAgo = new Date(Date.now() - 3600_000);
    const plant = async (rel: string, old: boolean) => {
      await fs.writeFile(path.join(root, rel), 'half a write');
      if (old) await fs.utimes(path.join(root, rel), hourAgo, hourAgo);
    };
    await plant('.nk-tmp-999999999-aaaaaa', false); // no such pid
    await plant(`archive/.nk-tmp-${process.pid}-bbbbbb`, true); // a live pid, but stale: a reused pid
    await plant(`.nk-tmp-${process.pid}-cccccc`, false); // a live writer mid-write: kept
    const session = await serve(['--profile', 'agent-memory', '--vault', root]);
    expect((await session.client.listTools()).tools.length).toBeGreaterThan(0);
    // The scan starts just after the open (decision 026) and every entry read waits for it.
    expect((await callTool(session.client, 'memory_list', {})).isError).toBe(false);
    const left = (await fs.readdir(root, { recursive: true })).filter((n) => n.includes('.nk-tmp-')).sort();
    expect(left).toEqual([`.nk-tmp-${process.pid}-cccccc`]);
    expect(session.stderr()).toContain('removed a temp file left by an interrupted write');
  });
});

describe('flint: names Windows reserves', () => {
  it('are refused on create, read, and as a type, with a message that says why', async () => {
    const root = await tempDir('nk-e2e-reserved-');
    dirs.push(root);
    const session = await serve(['--profile', 'flint', '--vault', root]);
    for (const title of ['con', 'AUX', 'nul', 'com1', 'lpt3']) {
      const created = await callTool(session.client, 'create_note', { type: 'general', title, content: 'x' });
      expect(created.isError, title).toBe(true);
      expect(JSON.stringify(created.body), title).toMatch(/validation_failed[\s\S]*reserved on Windows/);
    }
    for (const identifier of ['general/con.md', 'general/aux.md', 'general/name..md', 'general/trailing .md']) {
      const read = await callTool(session.client, 'get_note', { identifier });
      expect(read.isError, identifier).toBe(true);
    }
    const typed = await callTool(session.client, 'create_note', { type: 'prn', title: 'ok', content: 'x' });
    expect(typed.isError).toBe(true);
    expect((await fs.readdir(root)).filter((n) => !n.startsWith('.'))).not.toContain('prn');
    expect(
      (await callTool(session.client, 'create_note', { type: 'general', title: 'console', content: 'x' })).isError,
    ).toBe(false);
  });
});
