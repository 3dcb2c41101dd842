/**
 * The first `memory_read`s after a spawn, which come before the opening scan and the history
 * walk (decision 034): cold (no cache: from `git log` of each entry's paths) and warm (from the
 * cache once HEAD is checked), over MCP stdio against the built CLI on a real repository with
 * an edit, a rename and a move to archive/. The answers equal git's and the later listing's.
 * That they do not wait for the walk is shown in-process (test/unit/markdown-git/entry-log).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, connectStdio } from '../support/mcp.js';
import { removeDir, tempDir } from '../support/temp.js';
import { git, gitTimes, iso, write } from '../unit/markdown-git/helpers.js';

const T = 1_700_000_000;
let root: string;

interface Entry {
  id: string;
  createdAt: string;
  updatedAt: string;
  path: string;
}

beforeAll(async () => {
  root = await tempDir('nk-e2e-first-read-');
  git(root, ['init', '-q']);
  write(
    root,
    'plan id__Plan11.md',
    '# Plan\n\nthe plan, long enough for git to follow a rename\nline two\nline three\n',
  );
  write(root, 'note id__Note22.md', '# Note\n\nfirst\n');
  git(root, ['add', '-A']);
  git(root, ['commit', '-q', '-m', 'seed'], T);
  write(root, 'note id__Note22.md', '# Note\n\nsecond\n');
  git(root, ['commit', '-q', '-am', 'edit'], T + 100);
  fs.mkdirSync(path.join(root, 'archive'));
  git(root, ['mv', 'plan id__Plan11.md', 'archive/old-plan id__Plan11.md']);
  git(root, ['commit', '-q', '-m', 'rename and archive'], T + 200);
});

afterAll(async () => {
  await removeDir(root);
});

/** Both reads sent at once, right after `initialize`: they come before the opening scan (its 200 ms delay). */
async function firstReads(): Promise<{ entries: Entry[]; listed: Entry[] }> {
  const server = await connectStdio(['serve', '--profile', 'agent-memory', '--vault', root]);
  try {
    const answers = await Promise.all(
      ['id__Plan11', 'id__Note22'].map((id) => callTool(server.client, 'memory_read', { id })),
    );
    expect(answers.map((a) => a.isError)).toEqual([false, false]);
    const listed = (await callTool(server.client, 'memory_list', { status: 'all' })).body as Entry[];
    return { entries: answers.map((a) => a.body as Entry), listed };
  } finally {
    await server.close();
  }
}

describe('agent-memory: the first read after a spawn', () => {
  it('answers git’s times, cold and then warm, as the listing does after the walk', async () => {
    const expected = [
      { id: 'id__Plan11', createdAt: iso(T), updatedAt: iso(T + 200), path: 'archive/old-plan id__Plan11.md' },
      { id: 'id__Note22', createdAt: iso(T), updatedAt: iso(T + 100), path: 'note id__Note22.md' },
    ];
    for (const e of expected) {
      const fromGit = gitTimes(root, e.path);
      expect([e.createdAt, e.updatedAt]).toEqual([iso(fromGit.created), iso(fromGit.updated)]);
    }
    for (const state of ['cold', 'warm']) {
      if (state === 'cold') expect(fs.existsSync(path.join(root, '.notekernel', 'git-timestamps.json'))).toBe(false);
      else expect(fs.existsSync(path.join(root, '.notekernel', 'git-timestamps.json'))).toBe(true);
      const { entries, listed } = await firstReads();
      expect(entries.map((e) => ({ id: e.id, createdAt: e.createdAt, updatedAt: e.updatedAt, path: e.path }))).toEqual(
        expected,
      );
      for (const e of expected)
        expect(listed.find((l) => l.id === e.id)).toMatchObject({ createdAt: e.createdAt, updatedAt: e.updatedAt });
    }
  });
});
