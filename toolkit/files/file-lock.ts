/**
 * A cross-process lock per key: a hard link, named after the key, to this process's owner file
 * (which holds "<pid> <time>"). link() is atomic and fails when the name exists; it creates no
 * inode, and creating inodes is the slow part of small-file work on some filesystems (0.5 ms
 * each on the CI machine, against microseconds for a link; decision 010).
 * Two `notekernel serve` processes on one vault serialise their compare-and-swap on a note
 * through it. A lock whose owner died (kill -9) is broken: its pid is gone, or the owner file
 * has not been touched for `staleMs` (every take and release touches it; a pid can be reused).
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { backoff } from '../backoff.js';
import { ConflictError } from '../../kernel/errors.js';

const OWNER_PREFIX = 'owner-';

export interface FileLockOptions {
  /** Give up after this long waiting for another process. */
  timeoutMs?: number;
  /** A lock whose owner has neither taken nor released a lock for this long is abandoned. */
  staleMs?: number;
}

export class FileLocks {
  private readonly timeoutMs: number;
  private readonly staleMs: number;
  private owner: string | undefined;

  constructor(
    private readonly dir: string,
    options: FileLockOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.staleMs = options.staleMs ?? 30_000;
  }

  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const file = path.join(this.dir, `${createHash('sha1').update(key).digest('hex')}.lock`);
    await this.acquire(file, key);
    try {
      return await fn();
    } finally {
      unlinkIfPresent(file);
    }
  }

  /** Removes this process's owner file (locks still held keep it alive through their links). */
  close(): void {
    if (this.owner) unlinkIfPresent(this.owner);
    this.owner = undefined;
  }

  private async acquire(file: string, key: string): Promise<void> {
    const deadline = Date.now() + this.timeoutMs;
    let polls = 0;
    let recreated = false;
    for (;;) {
      const owner = this.ownerFile();
      try {
        // Synchronous: one tiny syscall, cheaper than a thread-pool round trip (decision 010).
        fs.linkSync(owner, file);
        return;
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' && !recreated) {
          // The folder or our owner file went away (a cleanup): make them again, once.
          this.owner = undefined;
          recreated = true;
          continue;
        }
        if (code !== 'EEXIST') throw err;
      }
      if (this.isAbandoned(file)) {
        unlinkIfPresent(file);
        continue;
      }
      if (Date.now() > deadline) {
        throw new ConflictError(`"${key}" is locked by another writer; try again.`, { key });
      }
      polls += 1;
      await new Promise((resolve) => setTimeout(resolve, backoff(polls, { baseMs: 2, maxMs: 50 })));
    }
  }

  private ownerFile(): string {
    if (this.owner) return this.owner;
    fs.mkdirSync(this.dir, { recursive: true });
    removeDeadOwners(this.dir);
    const owner = path.join(this.dir, `${OWNER_PREFIX}${process.pid}-${randomBytes(4).toString('hex')}`);
    fs.writeFileSync(owner, `${process.pid} ${Date.now()}`, { flag: 'wx' });
    this.owner = owner;
    return owner;
  }

  private isAbandoned(file: string): boolean {
    let text: string;
    let touchedMs: number;
    try {
      text = fs.readFileSync(file, 'utf8');
      touchedMs = fs.statSync(file).ctimeMs;
    } catch {
      return false; // released meanwhile: just retry
    }
    const pid = Number.parseInt(text.split(' ')[0] ?? '', 10);
    if (!pid) return true; // not one of ours: nothing will ever release it
    return Date.now() - touchedMs > this.staleMs || !isAlive(pid);
  }
}

/** Owner files of processes that are gone (a crash skips close()). */
function removeDeadOwners(dir: string): void {
  for (const name of fs.readdirSync(dir)) {
    if (!name.startsWith(OWNER_PREFIX)) continue;
    const pid = Number.parseInt(name.slice(OWNER_PREFIX.length), 10);
    if (pid && pid !== process.pid && !isAlive(pid)) unlinkIfPresent(path.join(dir, name));
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** unlink alone: fs.rm would lstat first, one more syscall on every write. */
function unlinkIfPresent(file: string): void {
  try {
    fs.unlinkSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}
