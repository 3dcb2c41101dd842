/**
 * Git-derived `created` / `updated` for every entry. The history is walked once (history-walk)
 * and the result cached on disk by HEAD oid; when HEAD moves, only the new commits are walked.
 * A file counts as committed when its bytes hash to the blob HEAD holds at its path; for
 * anything else (new, edited, renamed and not committed) the store falls back to file times,
 * keeping `created` from git when the id is known there. No repository, or one without a
 * commit, means file times for everything, with one warning per open.
 */
import fs from 'node:fs';
import type { Logger } from '../../../kernel/logger.js';
import { findGit, type GitLocation } from './git-location.js';
import { entryLog } from './entry-log.js';
import { walkHistory } from './history-walk.js';
import { GitObjectReader } from './object-reader.js';
import { listTree, subtreeAt } from './tree-diff.js';
import { headBlobOf, loadCache, saveCache, timesOf, type TimestampState } from './timestamp-cache.js';

export interface GitTimes {
  /** Milliseconds since the epoch. */
  created?: number;
  updated?: number;
}

type State = TimestampState;

/** Single-entry logs at once before reads wait for the walk instead. */
const MAX_ENTRY_LOGS = 2;

export class GitTimestamps {
  private location: GitLocation | undefined;
  private state: State | undefined;
  private dirty = false;
  private warned = false;
  private syncing: Promise<void> | undefined;
  /** `git log` runs for single entries in flight (lookupEntry). */
  private entryLogs = 0;

  constructor(
    private readonly root: string,
    private readonly cacheFile: string,
    private readonly idOf: (relPath: string) => string | undefined,
    private readonly logger: Logger,
  ) {}

  get repository(): GitLocation | undefined {
    return this.location;
  }

  /** Finds the repository and loads the cache; the walk itself runs on the first sync. */
  open(): void {
    this.location = findGit(this.root);
    if (!this.location) return this.fallback('the memory root is not inside a git repository');
    this.state = loadCache(this.cacheFile, this.location);
  }

  /** Brings the times up to HEAD (cheap when HEAD has not moved); concurrent callers share one run. */
  sync(): Promise<void> {
    this.syncing ??= this.syncNow().finally(() => (this.syncing = undefined));
    return this.syncing;
  }

  /** Git's times for an entry file, given its path and the git blob oid of its current bytes. */
  lookup(id: string, relPath: string, blobOid: string): GitTimes {
    const state = this.state;
    if (!state) return {};
    const times = timesOf(state, id);
    if (!times) return {};
    if (headBlobOf(state, relPath) === blobOid) return { created: times[0] * 1000, updated: times[1] * 1000 };
    return { created: times[0] * 1000 };
  }

  /**
   * `lookup` for one entry without waiting for a whole walk (decision 034): with no walked
   * times yet (a cold start), git is asked for the history of the id's paths alone (entry-log)
   * unless a walk is already under way or two such logs are. `relPaths`: every file carrying
   * the id now. Falls back to `sync()` when git cannot answer.
   */
  async lookupEntry(id: string, relPaths: readonly string[], relPath: string, blobOid: string): Promise<GitTimes> {
    const location = this.location;
    if (!location) return {};
    const head = await resolveHead(location);
    // With a cache, a moved HEAD costs a walk of the new commits only: cheaper than any log.
    // A burst of reads is served by the walk: each log costs git a third of a whole walk.
    if (head !== undefined && !this.state && !this.syncing && this.entryLogs < MAX_ENTRY_LOGS) {
      this.entryLogs++;
      const one = await entryLog({
        location,
        reader: new GitObjectReader(location.commondir),
        head,
        id,
        relPaths,
        idOf: this.idOf,
      })
        .catch((err: unknown) => {
          this.logger.debug({ err, id }, 'git log for one entry failed; walking the history instead');
          return undefined;
        })
        .finally(() => this.entryLogs--);
      if (one) {
        if (!one.times) return {};
        const [created, updated] = one.times;
        return one.headBlobs.get(relPath) === blobOid
          ? { created: created * 1000, updated: updated * 1000 }
          : { created: created * 1000 };
      }
    }
    await this.sync();
    return this.lookup(id, relPath, blobOid);
  }

  /** Whether git's history knows the id (then `created` comes from git). */
  knows(id: string): boolean {
    return this.state ? timesOf(this.state, id) !== undefined : false;
  }

  /** Writes the cache when a walk changed it. Never called from a read. */
  async save(): Promise<void> {
    if (!this.dirty || !this.state || !this.location) return;
    this.dirty = false;
    await saveCache(this.cacheFile, this.location, this.state);
  }

  /** After an auto-commit (or `git init`) the repository may be new: look again. */
  relocate(): void {
    if (!this.location) this.location = findGit(this.root);
  }

  private async syncNow(): Promise<void> {
    const location = this.location;
    if (!location) return;
    const head = await resolveHead(location);
    if (head === undefined) {
      this.state = undefined;
      return this.fallback('the git repository has no commits yet');
    }
    if (this.state?.head === head) return;
    const started = performance.now();
    const reader = new GitObjectReader(location.commondir);
    const previous = this.state ? { commits: this.state.commits, times: this.state.times } : undefined;
    let result = walkHistory({
      reader,
      head,
      prefix: location.prefix,
      idOf: this.idOf,
      ...(previous ? { previous } : {}),
    });
    // HEAD moved somewhere the cached walk does not lead (reset, rebase, another branch): the
    // cached times may hold commits that are gone, so walk everything again.
    if (previous && !result.stoppedAt.has((this.state as State).head)) {
      result = walkHistory({ reader, head, prefix: location.prefix, idOf: this.idOf });
    }
    const headBlobs = new Map<string, string>();
    const commitTree = /^tree ([0-9a-f]{40})/.exec(
      reader.require(head, 'commit').toString('latin1', 0, 45),
    )?.[1] as string;
    const tree = location.prefix.length ? subtreeAt(reader, commitTree, location.prefix) : commitTree;
    if (tree !== null) listTree(reader, tree, '', (path, _before, blob) => headBlobs.set(path, blob));
    this.state = { head, times: result.times, commits: result.commits, headBlobs };
    this.dirty = true;
    this.logger.debug(
      { head, commits: result.visited, entries: result.times.size, ms: Math.round(performance.now() - started) },
      'git timestamps walked',
    );
  }

  private fallback(reason: string): void {
    if (this.warned) return;
    this.warned = true;
    this.logger.warn({ root: this.root, reason }, `timestamps fall back to file times: ${reason}`);
  }
}

async function resolveHead(location: GitLocation): Promise<string | undefined> {
  // HEAD lives in the work tree's gitdir, branches in the common one (a linked work tree).
  let value = readText(`${location.gitdir}/HEAD`);
  for (let depth = 0; value !== undefined && depth < 5; depth++) {
    if (/^[0-9a-f]{40}$/.test(value)) return value;
    const ref = /^ref:\s*(\S+)$/.exec(value)?.[1];
    if (!ref) return undefined;
    value = readText(`${location.commondir}/${ref}`) ?? packedRef(location.commondir, ref);
  }
  return undefined; // an unborn branch: no commits yet
}

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** `<oid> <ref>` lines of `packed-refs`, where `git gc` moves loose refs. */
function packedRef(commondir: string, ref: string): string | undefined {
  const packed = readText(`${commondir}/packed-refs`);
  for (const line of packed?.split('\n') ?? [])
    if (line.endsWith(` ${ref}`) && /^[0-9a-f]{40} /.test(line)) return line.slice(0, 40);
  return undefined;
}
