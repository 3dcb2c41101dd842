/**
 * Group commit for folder fsyncs. A rename is durable only once its folder is fsync'd; when many
 * writers rename into one folder at once, one fsync that starts after all their renames covers
 * them all. A caller joins the sync that has not started yet, or schedules the next one after
 * the sync in flight (which may have started before its rename landed).
 */
import fs from 'node:fs/promises';

export class DirectorySync {
  private readonly waiting = new Map<string, Promise<void>>();
  private readonly running = new Map<string, Promise<void>>();

  sync(dir: string): Promise<void> {
    const joined = this.waiting.get(dir);
    if (joined) return joined;
    const inFlight = this.running.get(dir) ?? Promise.resolve();
    // setImmediate lets renames completing in the same I/O turn join before the sync starts.
    const next = inFlight
      .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
      .then(() => {
        this.waiting.delete(dir);
        const run = fsyncDirectory(dir);
        this.running.set(dir, run);
        return run.finally(() => {
          if (this.running.get(dir) === run) this.running.delete(dir);
        });
      });
    this.waiting.set(dir, next);
    return next;
  }
}

export async function fsyncDirectory(dir: string): Promise<void> {
  let handle;
  try {
    handle = await fs.open(dir, 'r');
    await handle.sync();
  } catch {
    // Some filesystems refuse fsync on a directory; the rename itself is still atomic.
  } finally {
    await handle?.close();
  }
}
