/**
 * One entry's times from `git log` of its paths (entry-log) equal what the whole-history walk
 * gives, on a history built to tell them apart: renames across folders, a copy whose original
 * is edited and deleted, a side branch merged back both cleanly and with a resolution of its
 * own, commits dated out of order, a root commit, and a memory root below the work tree. Then
 * through the store: a read before the opening scan (cold, then warm) equals the read after it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findGit } from '../../../backends/markdown-git/git/git-location.js';
import { entryLog } from '../../../backends/markdown-git/git/entry-log.js';
import { walkHistory } from '../../../backends/markdown-git/git/history-walk.js';
import { GitObjectReader } from '../../../backends/markdown-git/git/object-reader.js';
import { findNamed, listTree, subtreeAt } from '../../../backends/markdown-git/git/tree-diff.js';
import { idFromFilename } from '../../../toolkit/agent-memory/entry-name.js';
import { removeDir, tempDir } from '../../support/temp.js';
import { capturingLogger, git, openStore, write } from './helpers.js';

const T = 1_700_000_000;
const idOf = (p: string) => idFromFilename(path.posix.basename(p));
let top: string;

beforeEach(async () => {
  top = await tempDir('nk-entry-log-');
});

afterEach(async () => {
  await removeDir(top);
});

/** The history, written into `root` (the work tree itself or a folder in it). */
function buildHistory(workTree: string, root: string): void {
  const rel = (p: string) => path.relative(workTree, path.join(root, p));
  const at = (p: string, text: string) => write(workTree, rel(p), text);
  git(workTree, ['init', '-q']);
  at('alpha id__Alpha1.md', '# Alpha\n\none\n');
  at('beta id__Beta22.md', '# Beta\n\nbeta body long enough to be the same file\nline two\nline three\n');
  at('eps id__Eps555.md', '# Eps\n\nfirst\n');
  write(workTree, 'README.md', 'not in the memory root when it is a folder\n');
  git(workTree, ['add', '-A']);
  git(workTree, ['commit', '-q', '-m', 'root'], T);
  at('alpha id__Alpha1.md', '# Alpha\n\ntwo\n');
  git(workTree, ['mv', rel('beta id__Beta22.md'), rel('beta-renamed id__Beta22.md')]);
  git(workTree, ['add', '-A']);
  git(workTree, ['commit', '-q', '-m', 'edit and rename'], T + 100);
  fs.mkdirSync(path.join(root, 'archive'), { recursive: true });
  git(workTree, ['mv', rel('beta-renamed id__Beta22.md'), rel('archive/beta-renamed id__Beta22.md')]);
  at('eps-copy id__Eps555.md', '# Eps\n\nfirst\n');
  git(workTree, ['add', '-A']);
  git(workTree, ['commit', '-q', '-m', 'archive beta, copy eps'], T + 200);
  at('eps id__Eps555.md', '# Eps\n\nedited original\n');
  git(workTree, ['commit', '-q', '-am', 'edit the original copy'], T + 300);
  git(workTree, ['rm', '-q', rel('eps id__Eps555.md')]);
  git(workTree, ['commit', '-q', '-m', 'drop the original'], T + 400);
  // A side branch, dated before main's last commit, merged back cleanly...
  git(workTree, ['checkout', '-q', '-b', 'side', 'HEAD~2']);
  at('orgs/acme/gamma id__Gamma3.md', '# Gamma\n\nside\n');
  at('alpha id__Alpha1.md', '# Alpha\n\nthree from side\n');
  git(workTree, ['add', '-A']);
  git(workTree, ['commit', '-q', '-m', 'side'], T + 250);
  git(workTree, ['checkout', '-q', 'main']);
  git(workTree, ['merge', '-q', '--no-edit', 'side'], T + 500);
  // ...and a second side branch whose merge resolves a conflict with text of its own.
  git(workTree, ['checkout', '-q', '-b', 'other']);
  at('orgs/acme/gamma id__Gamma3.md', '# Gamma\n\nother\n');
  git(workTree, ['commit', '-q', '-am', 'other'], T + 600);
  git(workTree, ['checkout', '-q', 'main']);
  at('orgs/acme/gamma id__Gamma3.md', '# Gamma\n\nmain\n');
  git(workTree, ['commit', '-q', '-am', 'main gamma'], T + 650);
  spawnMerge(workTree, 'other');
  at('orgs/acme/gamma id__Gamma3.md', '# Gamma\n\nresolved\n');
  git(workTree, ['commit', '-q', '-am', 'merge other'], T + 700);
  at('delta id__Delta4.md', '# Delta\n\nlast\n');
  git(workTree, ['add', '-A']);
  git(workTree, ['commit', '-q', '-m', 'delta'], T + 800);
}

function spawnMerge(workTree: string, branch: string): void {
  try {
    git(workTree, ['merge', '-q', '--no-edit', branch], T + 700);
  } catch {
    // the conflict is the point: resolved by the caller
  }
}

/** Every id at HEAD: entry-log's answer against the walk's. */
async function compare(workTree: string, root: string): Promise<number> {
  const location = findGit(root)!;
  const head = git(workTree, ['rev-parse', 'HEAD']);
  const reader = new GitObjectReader(location.commondir);
  const walked = walkHistory({ reader, head, prefix: location.prefix, idOf });
  const headBlobs = new Map<string, string>();
  const commitTree = git(workTree, ['rev-parse', 'HEAD^{tree}']);
  const tree = location.prefix.length ? subtreeAt(reader, commitTree, location.prefix) : commitTree;
  listTree(reader, tree!, '', (p, _before, blob) => headBlobs.set(p, blob));
  const byId = new Map<string, string[]>();
  for (const p of headBlobs.keys()) if (idOf(p)) byId.set(idOf(p)!, [...(byId.get(idOf(p)!) ?? []), p]);
  for (const [id, relPaths] of byId) {
    const one = await entryLog({ location, reader: new GitObjectReader(location.commondir), head, id, relPaths, idOf });
    expect({ id, times: one?.times }).toEqual({ id, times: walked.times.get(id) });
    expect([...one!.headBlobs]).toEqual(relPaths.map((p) => [p, headBlobs.get(p)]));
  }
  return byId.size;
}

describe('one entry from git log of its paths', () => {
  it('gives the walk’s times for every entry (renames, a copy, merges, dates out of order)', async () => {
    buildHistory(top, top);
    expect(await compare(top, top)).toBe(5);
  });

  it('does so for a memory root below the work tree', async () => {
    const root = path.join(top, 'notes', 'memory');
    fs.mkdirSync(root, { recursive: true });
    buildHistory(top, root);
    expect(await compare(top, root)).toBe(5);
  });

  it('findNamed finds only the id’s files, in any folder', () => {
    buildHistory(top, top);
    const reader = new GitObjectReader(path.join(top, '.git'));
    const found: string[] = [];
    findNamed(reader, git(top, ['rev-parse', 'HEAD^{tree}']), '', Buffer.from('id__Beta22'), (p) => found.push(p));
    expect(found).toEqual(['archive/beta-renamed id__Beta22.md']);
  });

  it('a read before the opening scan equals the read after it, cold and warm', async () => {
    buildHistory(top, top);
    for (const state of ['cold', 'warm']) {
      if (state === 'cold') fs.rmSync(path.join(top, '.notekernel'), { recursive: true, force: true });
      const log = capturingLogger();
      const early = await openStore(top, {}, log.logger);
      const first = await Promise.all(['id__Beta22', 'id__Eps555'].map((id) => early.get(id)));
      // Answered before any walk: from git's log of each entry's paths (cold) or the cache (warm).
      expect(log.lines.filter((l) => l.msg === 'git timestamps walked')).toEqual([]);
      // More than two at once (cold: those past two logs in flight wait for the walk).
      const before = [
        ...first,
        ...(await Promise.all(['id__Alpha1', 'id__Gamma3', 'id__Delta4'].map((id) => early.get(id)))),
      ];
      await early.close();
      const late = await openStore(top);
      try {
        await late.list(); // waits for the scan and the walk
        const after = await Promise.all(before.map((note) => late.get(note!.id)));
        expect(before.map((n) => [n?.id, n?.created, n?.updated])).toEqual(
          after.map((n) => [n?.id, n?.created, n?.updated]),
        );
        expect(before.every((n) => n !== undefined)).toBe(true);
      } finally {
        await late.close();
      }
    }
  });
});
