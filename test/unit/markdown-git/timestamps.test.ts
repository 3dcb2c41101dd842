/**
 * created / updated from git, checked against the git binary on a real repository: several
 * commits, a rename, an org folder, a merge, an uncommitted file, an edited-but-uncommitted
 * file; then the cache (same HEAD: no walk), an incremental walk, a reset (full walk again),
 * and the fallbacks (no commits, no .git) with their single warning.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { removeDir, tempDir } from '../../support/temp.js';
import { capturingLogger, git, gitTimes, iso, openStore, write } from './helpers.js';

const T = 1_700_000_000;
let root: string;

beforeEach(async () => {
  root = await tempDir('nk-mdgit-');
});

afterEach(async () => {
  await removeDir(root);
});

function buildHistory(): void {
  git(root, ['init', '-q']);
  write(root, 'alpha id__Alpha1.md', '# Alpha\n\n#people\n\nfirst\n');
  write(
    root,
    'beta id__Beta22.md',
    '# Beta\n\nbeta body that is long enough for git to see a rename\nline two\nline three\n',
  );
  git(root, ['add', '-A']);
  git(root, ['commit', '-q', '-m', 'one'], T);
  write(root, 'alpha id__Alpha1.md', '# Alpha\n\n#people\n\nsecond\n');
  git(root, ['commit', '-q', '-am', 'two'], T + 100);
  git(root, ['mv', 'beta id__Beta22.md', 'beta-renamed id__Beta22.md']);
  git(root, ['commit', '-q', '-m', 'rename'], T + 200);
  write(root, 'orgs/acme/gamma id__Gamma3.md', '# Gamma\n\nacme\n');
  git(root, ['add', '-A']);
  git(root, ['commit', '-q', '-m', 'org'], T + 300);
  // A side branch merged back: its change to alpha reaches HEAD through the merge.
  git(root, ['checkout', '-q', '-b', 'side', 'HEAD~1']);
  write(root, 'archive/delta id__Delta4.md', '# Delta\n\nside\n');
  git(root, ['add', '-A']);
  git(root, ['commit', '-q', '-m', 'side'], T + 350);
  git(root, ['checkout', '-q', 'main']);
  git(root, ['merge', '-q', '--no-edit', 'side'], T + 400);
}

describe('markdown-git timestamps from git', () => {
  it('equal `git log` for every committed entry, across commits, a rename, an org folder and a merge', async () => {
    buildHistory();
    const store = await openStore(root);
    try {
      const listed = await store.list();
      expect(listed.map((n) => n.path).sort()).toEqual([
        'alpha id__Alpha1.md',
        'archive/delta id__Delta4.md',
        'beta-renamed id__Beta22.md',
        'orgs/acme/gamma id__Gamma3.md',
      ]);
      for (const note of listed) {
        const expected = gitTimes(root, note.path!);
        expect({ path: note.path, created: note.created, updated: note.updated }).toEqual({
          path: note.path,
          created: iso(expected.created),
          updated: iso(expected.updated),
        });
      }
      // The rename: created follows the id back to the first commit, updated is the rename.
      expect(listed.find((n) => n.id === 'id__Beta22')).toMatchObject({ created: iso(T), updated: iso(T + 200) });
      expect((await store.get('id__Alpha1'))?.updated).toBe(iso(T + 100));
    } finally {
      await store.close();
    }
  });

  it('an uncommitted file falls back to file times; an edited file keeps created from git', async () => {
    buildHistory();
    write(root, 'new id__Newwww.md', '# New\n\nnot committed\n');
    fs.appendFileSync(path.join(root, 'alpha id__Alpha1.md'), 'edited, not committed\n');
    const store = await openStore(root);
    try {
      const fresh = await store.get('id__Newwww');
      const stats = fs.statSync(path.join(root, 'new id__Newwww.md'));
      expect(fresh?.updated).toBe(stats.mtime.toISOString());
      // ISO strings hold whole milliseconds and file times are finer: allow that rounding.
      expect(Date.parse(fresh!.created)).toBeLessThanOrEqual(Math.ceil(stats.mtimeMs) + 1);
      const edited = await store.get('id__Alpha1');
      expect(edited?.created).toBe(iso(T));
      expect(edited?.updated).toBe(fs.statSync(path.join(root, 'alpha id__Alpha1.md')).mtime.toISOString());
    } finally {
      await store.close();
    }
  });

  it('caches by HEAD, walks only new commits, and walks everything again after a reset', async () => {
    buildHistory();
    const first = capturingLogger();
    let store = await openStore(root, {}, first.logger);
    await store.close();
    const cacheFile = path.join(root, '.notekernel', 'git-timestamps.json');
    expect(JSON.parse(fs.readFileSync(cacheFile, 'utf8')).head).toBe(git(root, ['rev-parse', 'HEAD']));
    expect(first.lines.filter((l) => l.msg === 'git timestamps walked')).toHaveLength(1);
    // Ignored by git: the metadata folder never shows in status.
    expect(git(root, ['status', '--porcelain'])).toBe('');

    const second = capturingLogger();
    store = await openStore(root, {}, second.logger);
    expect(second.lines.filter((l) => l.msg === 'git timestamps walked')).toHaveLength(0);
    // A commit made meanwhile (by a person): the next read walks just that commit.
    write(root, 'beta-renamed id__Beta22.md', '# Beta\n\nedited later\n');
    git(root, ['commit', '-q', '-am', 'later'], T + 500);
    expect((await store.get('id__Beta22'))?.updated).toBe(iso(T + 500));
    expect(second.lines.find((l) => l.msg === 'git timestamps walked')).toMatchObject({ commits: 1 });

    git(root, ['reset', '-q', '--hard', 'HEAD~1']);
    expect((await store.get('id__Beta22'))?.updated).toBe(iso(T + 200));
    expect(second.lines.filter((l) => l.msg === 'git timestamps walked').at(-1)).toMatchObject({ commits: 6 });
    await store.close();
  });

  it('reads HEAD through packed refs and a detached HEAD, as git resolves them', async () => {
    buildHistory();
    git(root, ['pack-refs', '--all']);
    expect(fs.existsSync(path.join(root, '.git', 'refs', 'heads', 'main'))).toBe(false);
    const captured = capturingLogger();
    let store = await openStore(root, {}, captured.logger);
    expect((await store.get('id__Alpha1'))?.updated).toBe(iso(T + 100));
    await store.close();
    git(root, ['checkout', '-q', '--detach', 'HEAD~1']); // before the merge: no delta yet
    store = await openStore(root, {}, captured.logger);
    try {
      expect((await store.list()).map((n) => n.id).sort()).toEqual(['id__Alpha1', 'id__Beta22', 'id__Gamma3']);
      expect((await store.get('id__Gamma3'))?.created).toBe(iso(T + 300));
      expect(captured.warnings()).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it('autoCommit commits each write, and the times then come from those commits', async () => {
    git(root, ['init', '-q']);
    const store = await openStore(root, { autoCommit: true });
    try {
      const note = await store.create({ title: 'Auto', content: 'committed by the store\n', tags: ['x'] });
      const renamed = await store.update(note.id, { title: 'Auto renamed' }, note.contentHash);
      expect(git(root, ['status', '--porcelain'])).toBe('');
      expect(git(root, ['log', '--format=%s']).split('\n')).toEqual([
        `memory: update Auto renamed (${note.id})`,
        `memory: capture Auto (${note.id})`,
      ]);
      const expected = gitTimes(root, renamed.path!);
      expect(await store.get(note.id)).toMatchObject({
        created: iso(expected.created),
        updated: iso(expected.updated),
      });
      await store.delete(note.id, renamed.contentHash);
      expect(git(root, ['ls-files'])).toBe('');
    } finally {
      await store.close();
    }
  });

  it('a plain folder with autoCommit gets a repository', async () => {
    const store = await openStore(root, { autoCommit: true });
    try {
      await store.create({ title: 'First', content: 'x' });
      expect(git(root, ['log', '--format=%s'])).toMatch(/^memory: capture First/);
    } finally {
      await store.close();
    }
  });

  for (const [label, prepare] of [
    ['no .git at all', () => undefined],
    ['a repository with no commits', () => git(root, ['init', '-q'])],
  ] as const) {
    it(`${label}: timestamps fall back to file times, with a single warning`, async () => {
      prepare();
      write(root, 'one id__One111.md', '# One\n\n1\n');
      write(root, 'two id__Two222.md', '# Two\n\n2\n');
      const captured = capturingLogger();
      const store = await openStore(root, {}, captured.logger);
      try {
        for (const note of await store.list())
          expect(note.updated).toBe(fs.statSync(path.join(root, note.path!)).mtime.toISOString());
        await store.get('id__One111');
        await store.create({ title: 'Three', content: '3' });
        await store.list();
        const fallbacks = captured.warnings().filter((w) => w.msg.startsWith('timestamps fall back'));
        expect(fallbacks).toHaveLength(1);
      } finally {
        await store.close();
      }
    });
  }
});
