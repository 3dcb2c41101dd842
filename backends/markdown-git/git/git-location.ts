/**
 * Finds the repository a memory root belongs to, as `git` run inside it would: the nearest
 * `.git` folder (or `.git` file of a linked work tree) at the root or above it. The root may
 * be a sub-folder of the work tree; `prefix` is its path there.
 */
import fs from 'node:fs';
import path from 'node:path';

export interface GitLocation {
  workTree: string;
  gitdir: string;
  /** Where objects and refs live (differs from gitdir in a linked work tree). */
  commondir: string;
  /** The memory root's path inside the work tree, as segments. */
  prefix: string[];
}

export function findGit(root: string): GitLocation | undefined {
  for (let dir = root; ; dir = path.dirname(dir)) {
    const dotGit = path.join(dir, '.git');
    const gitdir = gitdirAt(dotGit, dir);
    if (gitdir) {
      const prefix = path.relative(dir, root).split(path.sep).filter(Boolean);
      return { workTree: dir, gitdir, commondir: commondirOf(gitdir), prefix };
    }
    if (path.dirname(dir) === dir) return undefined;
  }
}

function gitdirAt(dotGit: string, workTree: string): string | undefined {
  let stats: fs.Stats;
  try {
    stats = fs.statSync(dotGit);
  } catch {
    return undefined;
  }
  if (stats.isDirectory()) return fs.existsSync(path.join(dotGit, 'HEAD')) ? dotGit : undefined;
  const text = fs.readFileSync(dotGit, 'utf8');
  const match = /^gitdir:\s*(.+?)\s*$/m.exec(text);
  return match ? path.resolve(workTree, match[1] as string) : undefined;
}

function commondirOf(gitdir: string): string {
  try {
    return path.resolve(gitdir, fs.readFileSync(path.join(gitdir, 'commondir'), 'utf8').trim());
  } catch {
    return gitdir;
  }
}
