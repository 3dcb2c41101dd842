/**
 * The walked history on disk (`<metaDir>/git-timestamps.json`), so a restart with an unchanged
 * HEAD costs one file read. It is a cache: anything unreadable, from another repository or
 * another layout is ignored and the history walked again.
 */
import fs from 'node:fs';
import fs_promises from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../../../toolkit/files/atomic-write.js';
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
  if (parsed?.version !== 2 || parsed.gitdir !== location.gitdir || parsed.prefix !== location.prefix.join('/'))
    return undefined;
  // A cache from elsewhere (or damaged) is refused here, as a whole, so the maps built later cannot fail.
  return wellFormed(parsed) ? new LoadedState(parsed) : undefined;
}

function wellFormed(file: CacheFile): boolean {
  if (typeof file.head !== 'string' || typeof file.commits !== 'string' || file.commits.length % 40 !== 0) return false;
  if (typeof file.ids !== 'string' || typeof file.paths !== 'string' || typeof file.blobs !== 'string') return false;
  if (!Array.isArray(file.created) || !Array.isArray(file.updated)) return false;
  const ids = lineCount(file.ids);
  return file.created.length === ids && file.updated.length === ids && file.blobs.length === 40 * lineCount(file.paths);
}

/**
 * The cache as read. Its maps (10,000 entries: ~15 ms to build) are built on first use; until
 * then a few single lookups (the first read after a start needs one entry) search the flat
 * strings instead. Past those, the maps are built: the opening's scan looks up every entry.
 */
class LoadedState implements TimestampState {
  readonly head: string;
  private timesMap: Map<string, EntryTimes> | undefined;
  private commitSet: Set<string> | undefined;
  private blobMap: Map<string, string> | undefined;
  private searches = 0;

  constructor(private readonly file: CacheFile) {
    this.head = file.head;
  }

  get times(): Map<string, EntryTimes> {
    if (this.timesMap) return this.timesMap;
    const times = new Map<string, EntryTimes>();
    const ids = this.file.ids ? this.file.ids.split('\n') : [];
    for (let i = 0; i < ids.length; i++)
      times.set(ids[i] as string, [this.file.created[i] as number, this.file.updated[i] as number]);
    return (this.timesMap = times);
  }

  get commits(): Set<string> {
    if (this.commitSet) return this.commitSet;
    const commits = new Set<string>();
    for (let i = 0; i < this.file.commits.length; i += 40) commits.add(this.file.commits.slice(i, i + 40));
    return (this.commitSet = commits);
  }

  get headBlobs(): Map<string, string> {
    if (this.blobMap) return this.blobMap;
    const headBlobs = new Map<string, string>();
    const paths = this.file.paths ? this.file.paths.split('\n') : [];
    for (let i = 0; i < paths.length; i++)
      headBlobs.set(paths[i] as string, this.file.blobs.slice(i * 40, i * 40 + 40));
    return (this.blobMap = headBlobs);
  }

  timesOf(id: string): EntryTimes | undefined {
    if (this.timesMap || !this.searchAllowed()) return this.times.get(id);
    const i = lineIndex(this.file.ids, id);
    return i < 0 ? undefined : [this.file.created[i] as number, this.file.updated[i] as number];
  }

  headBlobOf(relPath: string): string | undefined {
    if (this.blobMap || !this.searchAllowed()) return this.headBlobs.get(relPath);
    const i = lineIndex(this.file.paths, relPath);
    return i < 0 ? undefined : this.file.blobs.slice(i * 40, i * 40 + 40);
  }

  private searchAllowed(): boolean {
    return ++this.searches <= SEARCHES_BEFORE_MAPS;
  }
}

const SEARCHES_BEFORE_MAPS = 8;

/** An entry's times: from the maps, or (a loaded cache's first few) from its flat strings. */
export function timesOf(state: TimestampState, id: string): EntryTimes | undefined {
  return state instanceof LoadedState ? state.timesOf(id) : state.times.get(id);
}

/** The blob oid HEAD holds at a path, found as `timesOf` finds times. */
export function headBlobOf(state: TimestampState, relPath: string): string | undefined {
  return state instanceof LoadedState ? state.headBlobOf(relPath) : state.headBlobs.get(relPath);
}

/** The index of `key` among the `\n`-separated lines of `joined`, or -1. */
function lineIndex(joined: string, key: string): number {
  if (!joined || !key || key.includes('\n')) return -1;
  for (let at = joined.indexOf(key); at >= 0; at = joined.indexOf(key, at + 1)) {
    const end = at + key.length;
    if ((at === 0 || joined.charCodeAt(at - 1) === 10) && (end === joined.length || joined.charCodeAt(end) === 10))
      return newlinesBefore(joined, at);
  }
  return -1;
}

function lineCount(joined: string): number {
  return joined ? newlinesBefore(joined, joined.length) + 1 : 0;
}

function newlinesBefore(joined: string, end: number): number {
  let count = 0;
  for (let i = joined.indexOf('\n'); i >= 0 && i < end; i = joined.indexOf('\n', i + 1)) count++;
  return count;
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
  if (!fs.existsSync(ignore))
    await fs_promises.writeFile(ignore, '# notekernel caches and locks: never committed\n*\n');
}
