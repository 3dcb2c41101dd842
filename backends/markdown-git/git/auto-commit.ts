/**
 * The optional auto-commit (backend option `autoCommit`): each write is committed on its own
 * with isomorphic-git (no git binary), so history — and with it `created` / `updated` — keeps
 * up with the agent. Only the paths the write touched are staged. Commits are serialised:
 * git's index is one file.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from '../../../kernel/logger.js';
import { findGit, type GitLocation } from './git-location.js';

/** Loaded on the first commit: most memory roots never auto-commit, and loading it took ~55 ms of a ~320 ms start. */
const isomorphicGit = async () => (await import('isomorphic-git')).default;

export interface CommitAuthor {
  name: string;
  email: string;
}

export interface CommitRequest {
  /** Vault-relative paths written (staged as they are now). */
  added: string[];
  /** Vault-relative paths removed. */
  removed: string[];
  message: string;
}

export class AutoCommitter {
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly root: string,
    private readonly author: CommitAuthor,
    private readonly logger: Logger,
  ) {}

  /** A plain folder gets a repository, so that committing can start (the option asked for it). */
  async ensureRepository(): Promise<GitLocation> {
    const found = findGit(this.root);
    if (found) return found;
    const git = await isomorphicGit();
    await git.init({ fs, dir: this.root, defaultBranch: 'main' });
    this.logger.info({ root: this.root }, 'autoCommit: initialised a git repository in the memory root');
    return findGit(this.root) as GitLocation;
  }

  commit(request: CommitRequest): Promise<void> {
    const run = this.queue.then(() => this.commitNow(request));
    // A failed commit is logged by the caller; the next one must still run.
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async commitNow(request: CommitRequest): Promise<void> {
    const location = await this.ensureRepository();
    const git = await isomorphicGit();
    const dir = location.workTree;
    const inTree = (rel: string) => path.posix.join(...location.prefix, rel);
    for (const rel of request.removed) {
      await git.remove({ fs, dir, gitdir: location.gitdir, filepath: inTree(rel) });
    }
    for (const rel of request.added) {
      await git.add({ fs, dir, gitdir: location.gitdir, filepath: inTree(rel) });
    }
    await git.commit({ fs, dir, gitdir: location.gitdir, message: request.message, author: this.author });
  }
}
