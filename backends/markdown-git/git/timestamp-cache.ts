/**
 * The walked history on disk (`<metaDir>/git-timestamps.json`), so a restart with an unchanged
 * HEAD costs one file read. It is a cache: anything unreadable, from another repository or
 * another layout is ignored and the history walked again.
 */
import fs from 'node:fs';
import fs_promises from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../../../kernel/util/atomic-write.js';
import type { GitLocation } from './git-location.js';
import type { EntryTimes } from './history-walk.js';

/** What the walk produced, in memory. */
export interface TimestampState {
  head: string;
  times: Map<string, EntryTimes>;
  commits: Set<string>;
  /** Vault-relative path → blob oid at HEAD, for every `.md` file. */
  headBlobs: Map<string, string>;
}

/**
 * On disk the maps are flattened into a few long strings and number arrays: JSON.parse of
 * three strings is several times faster than of 20,000 small keys, which keeps a warm start
 * (unchanged HEAD) well under 100 ms at 10,000 entries.
 */
interface CacheFile {
  version: 2;
  gitdir: string;
  prefix: string;
  head: string;
  /** 40-hex oids, concatenated. */
  commits: string;
  /** `\n`-joined ids, with their created and updated times (seconds) at the same index. */
  ids: string;
  created: number[];
  updated: number[];
  /** `\n`-joined paths, with their blob oids concatenated in the same order. */
  paths: string;
  blobs: string;
}

export function loadCache(file: string, location: GitLocation): TimestampState | undefined {
  let parsed: CacheFile;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as CacheFile;
  } catch {
    return undefined;
  }
  if (parsed?.version !== 2 || parsed.gitdir !== location.gitdir || parsed.prefix !== location.prefix.join('/')) return undefined;
  try {
    const times = new Map<string, EntryTimes>();
    const ids = parsed.ids ? parsed.ids.split('\n') : [];
    for (let i = 0; i < ids.length; i++) times.set(ids[i] as string, [parsed.created[i] as number, parsed.updated[i] as number]);
    const commits = new Set<string>();
    for (let i = 0; i < parsed.commits.length; i += 40) commits.add(parsed.commits.slice(i, i + 40));
    const headBlobs = new Map<string, string>();
    const paths = parsed.paths ? parsed.paths.split('\n') : [];
    for (let i = 0; i < paths.length; i++) headBlobs.set(paths[i] as string, parsed.blobs.slice(i * 40, i * 40 + 40));
    return { head: parsed.head, times, commits, headBlobs };
  } catch {
    return undefined; // a cache from elsewhere: walk again
  }
}

export async function saveCache(file: string, location: GitLocation, state: TimestampState): Promise<void> {
  const ids = [...state.times.keys()];
  const cache: CacheFile = {
    version: 2,
    gitdir: location.gitdir,
    prefix: location.prefix.join('/'),
    head: state.head,
    commits: [...state.commits].join(''),
    ids: ids.join('\n'),
    created: ids.map((id) => (state.times.get(id) as EntryTimes)[0]),
    updated: ids.map((id) => (state.times.get(id) as EntryTimes)[1]),
    paths: [...state.headBlobs.keys()].join('\n'),
    blobs: [...state.headBlobs.values()].join(''),
  };
  await ensureMetaDir(path.dirname(file));
  await writeFileAtomic(file, JSON.stringify(cache));
}

/**
 * The metadata folder ignores itself (`.gitignore` holding `*`), so caches and lock files never
 * show up in `git status` of the memory root nor in an auto-commit.
 */
export async function ensureMetaDir(dir: string): Promise<void> {
  await fs_promises.mkdir(dir, { recursive: true });
  const ignore = path.join(dir, '.gitignore');
  if (!fs.existsSync(ignore)) await fs_promises.writeFile(ignore, '# notekernel caches and locks: never committed\n*\n');
}
