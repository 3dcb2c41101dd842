/**
 * When an entry was created, for entries git does not know yet. A file's birth time is lost
 * on every atomic rewrite (a new inode), so without this an uncommitted entry would look
 * "created" at its last edit. Kept in `<metaDir>/created.json`, written only by writes; ids
 * that git has taken over are dropped when it is saved.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../../toolkit/files/atomic-write.js';
import { ensureMetaDir } from './git/timestamp-cache.js';

export class LocalCreated {
  private readonly times = new Map<string, number>();
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly file: string) {
    try {
      const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
      if (typeof parsed === 'object' && parsed !== null) {
        for (const [id, ms] of Object.entries(parsed)) if (typeof ms === 'number') this.times.set(id, ms);
      }
    } catch {
      // none yet, or unreadable: file times stand in
    }
  }

  get(id: string): number | undefined {
    return this.times.get(id);
  }

  set(id: string, ms: number): void {
    this.times.set(id, ms);
  }

  delete(id: string): void {
    this.times.delete(id);
  }

  /** Saves (serialised: concurrent writers each get their turn), dropping ids `known` says git has. */
  save(known: (id: string) => boolean): Promise<void> {
    const run = this.queue.then(async () => {
      for (const id of [...this.times.keys()]) if (known(id)) this.times.delete(id);
      await ensureMetaDir(path.dirname(this.file));
      await writeFileAtomic(this.file, JSON.stringify(Object.fromEntries(this.times)));
    });
    this.queue = run.catch(() => undefined);
    return run;
  }
}
