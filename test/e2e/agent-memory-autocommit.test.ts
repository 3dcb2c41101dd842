/**
 * autoCommit through the built CLI: isomorphic-git is loaded on the first commit only (decision
 * 034), from its own chunk of the bundle. A plain folder with the option set in its config file
 * gets a repository on the first capture, and each write is a commit git itself lists.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, connectStdio } from '../support/mcp.js';
import { removeDir, tempDir } from '../support/temp.js';
import { git } from '../unit/markdown-git/helpers.js';

let root: string;

beforeAll(async () => {
  root = await tempDir('nk-e2e-autocommit-');
  fs.writeFileSync(
    path.join(root, 'notekernel.config.json'),
    JSON.stringify({ profile: 'agent-memory', storage: { options: { autoCommit: true } } }),
  );
});

afterAll(async () => {
  await removeDir(root);
});

describe('agent-memory with autoCommit, served by the built CLI', () => {
  it('commits each write with the library loaded on demand; the read shows the commit’s time', async () => {
    const server = await connectStdio(['serve', '--vault', root]);
    try {
      const captured = await callTool(server.client, 'memory_capture', { title: 'Committed', body: 'by the server\n' });
      expect(captured.isError).toBe(false);
      const entry = captured.body as { id: string; path: string };
      const renamed = await callTool(server.client, 'memory_rename', { id: entry.id, new_title: 'Committed again' });
      expect(renamed.isError).toBe(false);
      expect(git(root, ['log', '--format=%s']).split('\n')).toEqual([
        `memory: update Committed again (${entry.id})`,
        `memory: capture Committed (${entry.id})`,
      ]);
      const read = (await callTool(server.client, 'memory_read', { id: entry.id })).body as { updatedAt: string };
      expect(read.updatedAt).toBe(new Date(Number(git(root, ['log', '-1', '--format=%at'])) * 1000).toISOString());
    } finally {
      await server.close();
    }
  });
});
