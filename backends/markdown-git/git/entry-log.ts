/**
 * One entry's git times without walking the whole history (decision 034): `git log` limited to
 * the paths that carried the id, which git answers in a fraction of a full walk because it
 * prunes every tree that does not lead to them. Used by a read before the history walk of a
 * cold start has finished; it gives what the walk (history-walk) would give:
 *  - `--full-history`: every commit is visited, as the walk does, not git's simplified history;
 *  - `-c`: a merge counts a path only where it differs from every parent (an add only where it
 *    is new to every parent), as the walk's `changedPaths`;
 *  - `--no-renames`, deletions dropped: a rename is an add of the new path;
 *  - the paths an id had before a rename or copy (or beside the one added) are found in each
 *    commit that added one of its paths and in that commit's parents; the log runs again with
 *    them until no new path turns up.
 * What it cannot see: another file of the id that came and went between two such commits (an
 * id that vanished from every path and came back under another name, a copy added later and
 * deleted again). Such anomalies only the full walk follows; it answers every later read.
 */
import { execFile } from 'node:child_process';
import type { GitLocation } from './git-location.js';
import type { EntryTimes } from './history-walk.js';
import type { GitObjectReader } from './object-reader.js';
import { findNamed, subtreeAt } from './tree-diff.js';

export interface EntryLogInput {
  location: GitLocation;
  reader: GitObjectReader;
  head: string;
  id: string;
  /** The id's files now (vault-relative). */
  relPaths: readonly string[];
  idOf(path: string): string | undefined;
}

export interface EntryLog {
  /** [created, updated] in seconds, or undefined when no commit touched the id. */
  times: EntryTimes | undefined;
  /** Vault-relative path → blob oid at `head`, for the id's paths there. */
  headBlobs: Map<string, string>;
}

/** Renames and copies to follow back before giving up to the full walk. */
const MAX_ROUNDS = 8;

/** Undefined when git cannot be run here (no binary, an error): the caller walks instead. */
export async function entryLog(input: EntryLogInput): Promise<EntryLog | undefined> {
  const { location, reader, head, id, idOf } = input;
  const paths = new Set(input.relPaths);
  // git runs in its own process: the blobs at HEAD are read meanwhile.
  let logged = logPaths(location, head, [...paths]);
  const headBlobs = pathsOfId(reader, head, location.prefix, idOf, id);
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const commits = await logged;
    if (!commits) return undefined;
    const before = paths.size;
    for (const commit of commits) {
      if (!commit.changes.some((c) => c.added)) continue;
      for (const oid of [commit.oid, ...commit.parents])
        for (const path of pathsOfId(reader, oid, location.prefix, idOf, id).keys()) paths.add(path);
    }
    if (paths.size === before) return { times: timesFrom(commits), headBlobs };
    logged = logPaths(location, head, [...paths]);
  }
  return undefined;
}

interface LoggedCommit {
  oid: string;
  author: number;
  parents: string[];
  changes: Array<{ path: string; added: boolean }>;
}

/** The walk's rule, newest commit first: updated is the first touch, created the oldest add (else the oldest touch). */
function timesFrom(commits: readonly LoggedCommit[]): EntryTimes | undefined {
  let times: EntryTimes | undefined;
  let addSeen = false;
  for (const commit of commits) {
    if (commit.changes.length === 0) continue;
    const added = commit.changes.some((c) => c.added);
    if (!times) {
      times = [commit.author, commit.author];
      addSeen = added;
    } else if (added) {
      times[0] = commit.author;
      addSeen = true;
    } else if (!addSeen) {
      times[0] = commit.author;
    }
  }
  return times;
}

function logPaths(location: GitLocation, head: string, relPaths: string[]): Promise<LoggedCommit[] | undefined> {
  const prefix = location.prefix.length ? `${location.prefix.join('/')}/` : '';
  const args = [
    // The repository found for the root, whatever GIT_DIR a parent process left in the environment.
    `--git-dir=${location.gitdir}`,
    `--work-tree=${location.workTree}`,
    '--no-replace-objects',
    // A user's config must not change what is listed: no rename following, root commits shown.
    '-c',
    'log.follow=false',
    '-c',
    'log.showRoot=true',
    '-c',
    'log.showSignature=false',
    'log',
    '--full-history',
    '--no-renames',
    '-c',
    '--name-status',
    '-z',
    '--format=%x01%H %at %P',
    head,
    '--',
    ...relPaths.map((p) => `:(literal)${prefix}${p}`),
  ];
  return new Promise((resolve) => {
    execFile(
      'git',
      args,
      { cwd: location.workTree, encoding: 'buffer', maxBuffer: 1 << 28, windowsHide: true },
      (err, stdout) => {
        resolve(err ? undefined : parseLog(stdout.toString('utf8'), prefix));
      },
    );
  });
}

/**
 * `\x01<oid> <author time> <parents…>\0` then `\n<status>\0<path>\0…` per commit
 * (a merge: `\0<status>\0<path>\0…`, one letter per parent).
 */
function parseLog(text: string, prefix: string): LoggedCommit[] {
  const out: LoggedCommit[] = [];
  for (const record of text.split('\x01')) {
    if (!record) continue;
    const [header = '', ...rest] = record.split('\0');
    const [oid = '', author = '0', ...parents] = header.split(' ');
    // Neither a status nor a path is ever empty: empty fields are separators (a merge's differ from a commit's).
    const fields = rest.map((f) => f.replace(/^\n/, '')).filter(Boolean);
    const changes: LoggedCommit['changes'] = [];
    for (let i = 0; i + 1 < fields.length; i += 2) {
      const status = fields[i] as string;
      const path = fields[i + 1] as string;
      // A deletion is not a change to a file that exists afterwards (the walk never reports one).
      if (status.includes('D') || !path.startsWith(prefix)) continue;
      changes.push({ path: path.slice(prefix.length), added: /^A+$/.test(status) });
    }
    out.push({ oid, author: Number(author), parents: parents.filter(Boolean), changes });
  }
  return out;
}

/** The id's `.md` paths in a commit's tree (at the vault's prefix), with their blob oids. */
function pathsOfId(
  reader: GitObjectReader,
  commitOid: string,
  prefix: readonly string[],
  idOf: (path: string) => string | undefined,
  id: string,
): Map<string, string> {
  const out = new Map<string, string>();
  const object = reader.read(commitOid);
  if (object?.type !== 'commit') return out; // beyond a shallow clone's end
  const rootTree = object.data.toString('latin1', 5, 45);
  const tree = prefix.length ? subtreeAt(reader, rootTree, prefix) : rootTree;
  if (tree !== null)
    findNamed(reader, tree, '', Buffer.from(id), (path, blob) => idOf(path) === id && out.set(path, blob));
  return out;
}
