/**
 * Crash-safe writes: the bytes go to a temp file in the same folder, are fsync'd, then take
 * the target's place in one rename (or one link, when the target must not exist yet). A crash
 * leaves either the old file or the new one, never half of either; stray temp files are
 * recognisable by their prefix and ignored by scanners.
 */
import { randomBytes } from 'node:crypto';
import type { Stats } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ConflictError } from '../errors.js';
import { fsyncDirectory } from './directory-sync.js';

export const TEMP_PREFIX = '.nk-tmp-';

export interface AtomicWriteOptions {
  /** Fail with ConflictError when the target exists. */
  exclusive?: boolean;
  /** How the folder gets fsync'd after the rename (a DirectorySync shares one fsync among writers). */
  syncDirectory?: (dir: string) => Promise<void>;
}

/** Returns the written file's stats (the rename keeps the inode, so they are the target's). */
export async function writeFileAtomic(target: string, data: string | Uint8Array, options: AtomicWriteOptions = {}): Promise<Stats> {
  const dir = path.dirname(target);
  const temp = path.join(dir, `${TEMP_PREFIX}${process.pid}-${randomBytes(6).toString('hex')}`);
  const handle = await fs.open(temp, 'wx', 0o644);
  let stats: Stats;
  try {
    await handle.writeFile(data);
    await handle.sync();
    stats = await handle.stat();
  } finally {
    await handle.close();
  }
  try {
    if (options.exclusive) {
      // link() fails when the target exists, so two creators of one name cannot both win.
      try {
        await fs.link(temp, target);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'EEXIST') throw new ConflictError(`File already exists: ${path.basename(target)}`, { path: target });
        throw err;
      }
      await fs.unlink(temp);
    } else {
      await fs.rename(temp, target);
    }
  } catch (err) {
    await fs.rm(temp, { force: true });
    throw err;
  }
  await (options.syncDirectory ?? fsyncDirectory)(dir);
  return stats;
}
