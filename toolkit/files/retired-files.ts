/**
 * Old versions of replaced files, removed off the write's critical path. Replacing a note frees
 * its old blocks, and on some filesystems that waits for the journal (measured: a rename over a
 * just-written file took ~1 ms, 200 of them half of a rename_note). So the atomic write keeps the
 * old version under a temp name and hands it here; it is unlinked a moment later, in the thread
 * pool. Left behind by a crash, it is a temp file of a dead process: the next refresh removes it.
 */
import fs from 'node:fs';

const SWEEP_AFTER_MS = 100;

export class RetiredFiles {
  private readonly pending = new Set<string>();
  private timer: NodeJS.Timeout | undefined;

  add(file: string): void {
    this.pending.add(file);
    if (this.timer) return;
    this.timer = setTimeout(() => this.sweep(), SWEEP_AFTER_MS);
    this.timer.unref();
  }

  /** Removes what is still pending, now (the vault is closing). */
  close(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    for (const file of this.pending) fs.rmSync(file, { force: true });
    this.pending.clear();
  }

  private sweep(): void {
    this.timer = undefined;
    for (const file of this.pending) fs.unlink(file, () => undefined);
    this.pending.clear();
  }
}
