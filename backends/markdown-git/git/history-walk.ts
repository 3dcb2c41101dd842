/**
 * Timestamps for every entry in ONE walk of history (seed 002 asked `git log` once per file:
 * 10,000 processes for 10,000 entries). Commits are visited newest first, by committer date,
 * as `git log` orders them; each commit is diffed against its parents (a merge counts a file
 * only where it differs from every parent, as git's history simplification does).
 *
 * Times are keyed by the entry id (`id__XXXXXX` in the filename), not the path, so a rename
 * (new slug, same id) is followed: `updated` is the author time of the newest commit that
 * added or changed a file carrying the id (`git log -1 --format=%at -- <file>`), `created` the
 * author time of the oldest commit that added one (`git log --follow --diff-filter=A`).
 */
import type { GitObjectReader } from './object-reader.js';
import { diffTrees, listTree, subtreeAt } from './tree-diff.js';

/** [created, updated], each git author time in seconds. */
export type EntryTimes = [number, number];

export interface WalkInput {
  reader: GitObjectReader;
  head: string;
  /** Path of the vault root inside the work tree, as segments ([] when they are the same). */
  prefix: readonly string[];
  idOf(path: string): string | undefined;
  /** An earlier walk to extend: its commits are not visited again, its times are kept. */
  previous?: { commits: ReadonlySet<string>; times: ReadonlyMap<string, EntryTimes> };
}

export interface WalkResult {
  times: Map<string, EntryTimes>;
  /** Every commit reachable from head (the next incremental walk stops at these). */
  commits: Set<string>;
  /** Already-known commits the walk stopped at (an incremental walk is valid if the old HEAD is one). */
  stoppedAt: Set<string>;
  visited: number;
}

interface Commit {
  tree: string;
  parents: string[];
  author: number;
  committer: number;
}

export function walkHistory(input: WalkInput): WalkResult {
  const { reader, prefix, idOf } = input;
  const previous = input.previous;
  const times = new Map<string, EntryTimes>(previous ? [...previous.times].map(([id, t]) => [id, [t[0], t[1]]]) : []);
  const commits = new Set<string>(previous?.commits ?? []);
  const parsed = new Map<string, Commit | null>();
  const commitOf = (oid: string): Commit | null => {
    let commit = parsed.get(oid);
    if (commit === undefined) {
      const object = reader.read(oid);
      // A shallow clone ends in commits whose parents are absent: history stops there.
      commit = object && object.type === 'commit' ? parseCommit(object.data) : null;
      parsed.set(oid, commit);
    }
    return commit;
  };
  const subtree = (commit: Commit): string | null =>
    prefix.length ? subtreeAt(reader, commit.tree, prefix) : commit.tree;

  const updatedHere = new Set<string>();
  const addSeen = new Set<string>();
  const stoppedAt = new Set<string>();
  const queue = new CommitQueue();
  let visited = 0;
  if (!commits.has(input.head)) queue.push(input.head, commitOf(input.head)?.committer ?? 0);
  for (let oid = queue.pop(); oid !== undefined; oid = queue.pop()) {
    if (commits.has(oid)) continue;
    const commit = commitOf(oid);
    if (!commit) continue;
    commits.add(oid);
    visited++;
    const tree = subtree(commit);
    const parents = commit.parents.map(commitOf).filter((p): p is Commit => p !== null);
    for (const [path, added] of changedPaths(reader, tree, parents.map(subtree))) {
      const id = idOf(path);
      if (id === undefined) continue;
      const entry = times.get(id);
      if (!entry) {
        times.set(id, [commit.author, commit.author]);
        updatedHere.add(id);
        if (added) addSeen.add(id);
        continue;
      }
      // Newest first: the first commit seen touching an id in this walk is its last update.
      if (!updatedHere.has(id)) {
        entry[1] = commit.author;
        updatedHere.add(id);
      }
      // Older adds overwrite newer ones: the oldest add is the creation (unless an earlier
      // walk already knew the id, whose history is older than anything visited now). Until an
      // add is seen (a shallow clone may hold none), the oldest touch stands in for it.
      if (previous?.times.has(id)) continue;
      if (added) {
        entry[0] = commit.author;
        addSeen.add(id);
      } else if (!addSeen.has(id)) {
        entry[0] = commit.author;
      }
    }
    for (const parent of commit.parents) {
      if (!commits.has(parent)) queue.push(parent, commitOf(parent)?.committer ?? 0);
      else stoppedAt.add(parent);
    }
  }
  return { times, commits, stoppedAt, visited };
}

/** `.md` paths added (true) or changed (false) by a commit against its parents. */
function changedPaths(
  reader: GitObjectReader,
  tree: string | null,
  parentTrees: Array<string | null>,
): Map<string, boolean> {
  const out = new Map<string, boolean>();
  if (parentTrees.length === 0) {
    if (tree !== null) listTree(reader, tree, '', (path) => out.set(path, true));
    return out;
  }
  const [first, ...rest] = parentTrees;
  diffTrees(reader, first ?? null, tree, '', (path, before) => out.set(path, before === null));
  for (const other of rest) {
    if (out.size === 0) break;
    const again = new Map<string, boolean>();
    diffTrees(reader, other, tree, '', (path, before) => again.set(path, before === null));
    for (const [path, added] of out) {
      const there = again.get(path);
      if (there === undefined)
        out.delete(path); // same as that parent: not this merge's change
      else out.set(path, added && there);
    }
  }
  return out;
}

export function parseCommit(data: Buffer): Commit {
  const end = data.indexOf('\n\n');
  const header = data.toString('utf8', 0, end === -1 ? data.length : end);
  let tree = '';
  const parents: string[] = [];
  let author = 0;
  let committer = 0;
  for (const line of header.split('\n')) {
    if (line.startsWith('tree ')) tree = line.slice(5, 45);
    else if (line.startsWith('parent ')) parents.push(line.slice(7, 47));
    else if (line.startsWith('author ')) author = personTime(line);
    else if (line.startsWith('committer ')) committer = personTime(line);
  }
  return { tree, parents, author, committer };
}

/** `Name <email> 1700000000 +0100` → 1700000000. */
function personTime(line: string): number {
  const match = /> (\d+) [+-]\d{4}$/.exec(line);
  return match ? Number(match[1]) : 0;
}

/** Newest committer date first; equal dates in the order they were queued (git's prio_queue). */
class CommitQueue {
  private readonly heap: Array<{ oid: string; date: number; seq: number }> = [];
  private seq = 0;

  push(oid: string, date: number): void {
    const heap = this.heap;
    heap.push({ oid, date, seq: this.seq++ });
    let i = heap.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!before(heap[i]!, heap[parent]!)) break;
      [heap[i], heap[parent]] = [heap[parent]!, heap[i]!];
      i = parent;
    }
  }

  pop(): string | undefined {
    const heap = this.heap;
    const top = heap[0];
    const last = heap.pop();
    if (top === undefined || last === undefined) return undefined;
    if (heap.length > 0) {
      heap[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let best = i;
        if (l < heap.length && before(heap[l]!, heap[best]!)) best = l;
        if (r < heap.length && before(heap[r]!, heap[best]!)) best = r;
        if (best === i) break;
        [heap[i], heap[best]] = [heap[best]!, heap[i]!];
        i = best;
      }
    }
    return top.oid;
  }
}

function before(a: { date: number; seq: number }, b: { date: number; seq: number }): boolean {
  return a.date > b.date || (a.date === b.date && a.seq < b.seq);
}
