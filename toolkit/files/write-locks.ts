/**
 * The lock every write to a vault file takes: in-process first (cheap, fair), then the
 * cross-process lock file, so writers in this process and in other processes (a second
 * `notekernel serve`, the CLI) all serialise their compare-and-swap on that file.
 */
import path from 'node:path';
import { FileLocks, type FileLockOptions } from './file-lock.js';
import { KeyedMutex } from '../mutex.js';

export class WriteLocks {
  private readonly mutex = new KeyedMutex();
  private readonly files: FileLocks;

  constructor(
    private readonly root: string,
    lockDir: string,
    options?: FileLockOptions,
  ) {
    this.files = new FileLocks(lockDir, options);
  }

  /** `absolutePath` must be inside the root; the lock key is its vault-relative form. */
  run<T>(absolutePath: string, fn: () => Promise<T>): Promise<T> {
    const key = this.key(absolutePath);
    return this.mutex.run(key, () => this.files.run(key, fn));
  }

  /**
   * Holds the locks of several files at once, taken one by one in sorted order so two writers
   * locking overlapping sets cannot deadlock.
   */
  runAll<T>(absolutePaths: readonly string[], fn: () => Promise<T>): Promise<T> {
    const keys = [...new Set(absolutePaths.map((p) => this.key(p)))].sort();
    const hold = (i: number): Promise<T> => {
      const key = keys[i];
      return key === undefined ? fn() : this.mutex.run(key, () => this.files.run(key, () => hold(i + 1)));
    };
    return hold(0);
  }

  /**
   * This process only: for a write whose own syscall already excludes other processes (an
   * exclusive create by link(), which fails when the name exists), the file lock adds nothing.
   */
  runLocal<T>(absolutePath: string, fn: () => Promise<T>): Promise<T> {
    return this.mutex.run(this.key(absolutePath), fn);
  }

  /** Drops this process's owner file; call when the vault closes. */
  close(): void {
    this.files.close();
  }

  private key(absolutePath: string): string {
    return path.relative(this.root, absolutePath).split(path.sep).join('/');
  }
}
