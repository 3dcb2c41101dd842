/**
 * Crash-safe writes: the bytes go to a temp file in the same folder, are fsync'd, then take
 * the target's place in one rename (or one link, when the target must not exist yet). A crash
 * leaves either the old file or the new one, never half of either; stray temp files are
 * recognisable by their prefix and ignored by scanners.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ConflictError } from '../errors.js';

export const TEMP_PREFIX = '.nk-tmp-';

export async function writeFileAtomic(target: string, data: string | Uint8Array, options: { exclusive?: boolean } = {}): Promise<void> {
  const dir = path.dirname(target);
  const temp = path.join(dir, `${TEMP_PREFIX}${process.pid}-${randomBytes(6).toString('hex')}`);
  const handle = await fs.open(temp, 'wx', 0o644);
  try {
    await handle.writeFile(data);
    await handle.sync();
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
  await syncDirectory(dir);
}

async function syncDirectory(dir: string): Promise<void> {
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
