/**
 * Seed 002 FR-10: a read is a pure read. Every filesystem call that could change something is
 * spied on while the memory tools read (including a read right after someone committed, which
 * walks the new commit), and none may happen. Plus the bad inputs of issue 6 at store level.
 */
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestKernel, removeDir, tempDir } from '../../support/temp.js';
import { capturingLogger, git, openStore, write } from './helpers.js';

const WRITES_ASYNC = [
  'writeFile',
  'appendFile',
  'rename',
  'rm',
  'unlink',
  'mkdir',
  'link',
  'symlink',
  'copyFile',
  'utimes',
  'truncate',
  'rmdir',
  'chmod',
] as const;
const WRITES_SYNC = [
  'writeFileSync',
  'appendFileSync',
  'renameSync',
  'rmSync',
  'unlinkSync',
  'mkdirSync',
  'linkSync',
  'symlinkSync',
  'copyFileSync',
  'utimesSync',
  'truncateSync',
  'rmdirSync',
  'openSync',
] as const;

let root: string;

beforeEach(async () => {
  root = await tempDir('nk-mdgit-read-');
});

afterEach(async () => {
  vi.restoreAllMocks();
  await removeDir(root);
});

function spyOnWrites(): string[] {
  const calls: string[] = [];
  for (const name of WRITES_ASYNC)
    vi.spyOn(fsp, name).mockImplementation(
      ((...args: unknown[]) => void calls.push(`${name} ${String(args[0])}`)) as never,
    );
  for (const name of WRITES_SYNC) {
    const original = fs[name] as (...args: unknown[]) => unknown;
    vi.spyOn(fs, name).mockImplementation(((...args: unknown[]) => {
      if (name === 'openSync' && !/[wa+]/.test(String(args[1] ?? 'r'))) return original(...args);
      calls.push(`${name} ${String(args[0])}`);
      return undefined;
    }) as never);
  }
  const open = fsp.open.bind(fsp);
  vi.spyOn(fsp, 'open').mockImplementation(((file: string, flags?: string) => {
    if (/[wa+]/.test(String(flags ?? 'r'))) calls.push(`open ${file} ${flags}`);
    return open(file, flags);
  }) as never);
  return calls;
}

describe('markdown-git reads never write', () => {
  it('memory_read, memory_list, links, orphans, broken links and search touch nothing on disk', async () => {
    git(root, ['init', '-q']);
    write(root, 'a id__Aaaaa1.md', '# A\n\n#x\n\nlinks to [[id__Bbbbb2|B]]\n');
    write(root, 'b id__Bbbbb2.md', '# B\n\nplain\n');
    write(root, 'orgs/o/archive/c id__Ccccc3.md', '# C\n\n[[id__Gone00]]\n');
    write(root, 'stray.md', '# no id\n');
    git(root, ['add', '-A']);
    git(root, ['commit', '-q', '-m', 'one'], 1_700_000_000);
    const memory = await createTestKernel({ profile: 'agent-memory', root, init: false });
    try {
      // The open reads the entries and saves the history cache behind the open (decision 026): done here.
      await memory.vault.notes.store.count();
      write(root, 'b id__Bbbbb2.md', '# B\n\nplain, edited and committed by a person\n');
      git(root, ['commit', '-q', '-am', 'two'], 1_700_000_100);
      const calls = spyOnWrites();
      const vault = memory.vault;
      expect(await vault.call('memory_read', { id: 'id__Bbbbb2' })).toMatchObject({
        updatedAt: new Date(1_700_000_100_000).toISOString(),
      });
      await vault.call('memory_read', { id: 'Aaaaa1' });
      await vault.call('memory_list', { status: 'all' });
      await vault.call('memory_links', { id: 'id__Aaaaa1' });
      await vault.call('memory_orphans', {});
      await vault.call('memory_broken_links', {});
      await vault.call('memory_search', { query: 'plain' });
      await vault.notes.store.get('id__Ccccc3');
      await vault.notes.store.count();
      expect(calls).toEqual([]);
      // The spies are live on the very module objects the store writes through.
      await vault.call('memory_capture', { title: 'Control', body: 'x' }).catch(() => undefined);
      expect(calls.length).toBeGreaterThan(0);
    } finally {
      vi.restoreAllMocks();
      await memory.close();
    }
  });
});

describe('markdown-git bad input', () => {
  it('a markdown file without id__ is not an entry: left out of listings (never a crash), reported by refresh', async () => {
    write(root, 'entry id__Good11.md', '# Good\n\nok\n');
    write(root, 'README.md', '# About this folder\n');
    write(root, 'sub/notes.md', 'no heading, no id\n');
    const captured = capturingLogger();
    const store = await openStore(root, {}, captured.logger);
    try {
      expect((await store.list()).map((n) => n.id)).toEqual(['id__Good11']);
      const report = await store.refresh!();
      expect(report.skipped).toEqual([
        { path: 'README.md', reason: expect.stringMatching(/^not an entry/) },
        { path: 'sub/notes.md', reason: expect.stringMatching(/^not an entry/) },
      ]);
      expect(await store.get('README')).toBeUndefined();
      expect(captured.warnings().some((w) => w.msg.includes('2 files not read as notes'))).toBe(true);
    } finally {
      await store.close();
    }
  });

  it('two files with one id are both listed and both reported; writes to that id are refused', async () => {
    write(root, 'first id__Twin22.md', '# First\n\none\n');
    write(root, 'archive/second id__Twin22.md', '# Second\n\ntwo\n');
    const store = await openStore(root);
    try {
      const listed = await store.list({ orderBy: 'title', direction: 'asc' });
      expect(listed.map((n) => [n.id, n.path])).toEqual([
        ['id__Twin22', 'first id__Twin22.md'],
        ['id__Twin22', 'archive/second id__Twin22.md'],
      ]);
      const got = await store.get('id__Twin22');
      expect(got?.path).toBe('archive/second id__Twin22.md');
      expect(got?.warnings).toEqual(['id__Twin22 is also carried by first id__Twin22.md: rename one of the two files']);
      await expect(store.update('id__Twin22', { content: 'x' }, got!.contentHash)).rejects.toMatchObject({
        code: 'conflict',
        details: { paths: ['archive/second id__Twin22.md', 'first id__Twin22.md'] },
      });
      expect(fs.readFileSync(path.join(root, 'first id__Twin22.md'), 'utf8')).toBe('# First\n\none\n');
    } finally {
      await store.close();
    }
  });

  it('a file without a # heading takes its title from the filename, with a warning', async () => {
    write(root, 'meeting-notes-march id__Meet33.md', 'just text, #later\n');
    const store = await openStore(root);
    try {
      const note = await store.get('id__Meet33');
      expect(note).toMatchObject({ title: 'meeting notes march', tags: ['later'], content: 'just text, #later\n' });
      expect(note?.warnings?.[0]).toMatch(/no "# heading"/);
      const renamed = await store.update(note!.id, { title: 'March meeting' }, note!.contentHash);
      expect(renamed.path).toBe('march-meeting id__Meet33.md');
      expect(fs.readFileSync(path.join(root, renamed.path!), 'utf8')).toBe('# March meeting\n\njust text, #later\n');
    } finally {
      await store.close();
    }
  });
});
