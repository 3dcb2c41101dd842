/**
 * A cross-process lock per key: a symlink whose target text is "<pid> <time>" (creating a
 * symlink is atomic and fails if it exists; it holds no data blocks, so taking and dropping
 * it is cheaper than a lock file with contents).
 * Two `notekernel serve` processes on one vault serialise their compare-and-swap on a note
 * through it. A lock whose owner died (kill -9) is broken: its pid is gone, or it is older
 * than `staleMs` (a pid can be reused).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ConflictError } from '../errors.js';

export interface FileLockOptions {
  /** Give up after this long waiting for another process. */
  timeoutMs?: number;
  /** A lock older than this is considered abandoned. */
  staleMs?: number;
}

export class FileLocks {
  private readonly timeoutMs: number;
  private readonly staleMs: number;

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
      await unlinkIfPresent(file);
    }
  }

  private async acquire(file: string, key: string): Promise<void> {
    const deadline = Date.now() + this.timeoutMs;
    let wait = 2;
    for (;;) {
      try {
        await fs.symlink(`${process.pid} ${Date.now()}`, file);
        return;
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') {
          await fs.mkdir(this.dir, { recursive: true });
          continue;
        }
        if (code !== 'EEXIST') throw err;
      }
      if (await this.isAbandoned(file)) {
        await unlinkIfPresent(file);
        continue;
      }
      if (Date.now() > deadline) {
        throw new ConflictError(`"${key}" is locked by another writer; try again.`, { key });
      }
      await new Promise((resolve) => setTimeout(resolve, wait));
      wait = Math.min(wait * 2, 50);
    }
  }

  private async isAbandoned(file: string): Promise<boolean> {
    let text: string;
    try {
      text = await fs.readlink(file);
    } catch {
      return false; // released meanwhile: just retry
    }
    const [pid, since] = text.split(' ').map((part) => Number.parseInt(part, 10));
    if (!pid || !since) return true; // not one of ours: nothing will ever release it
    return Date.now() - since > this.staleMs || !isAlive(pid);
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
async function unlinkIfPresent(file: string): Promise<void> {
  try {
    await fs.unlink(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}
