/**
 * Making a vault folder that does not exist yet (`serve --vault`, `init`), one level at a time
 * from the nearest folder that exists: Node's recursive mkdir loops forever where the file
 * system refuses new entries with ENOENT (/proc), and its ENOTDIR names no culprit. A folder
 * that cannot be made is a usage error naming the path and the reason (exit 2), not a stack.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { ConfigError } from '../../kernel/errors.js';

/** Creates `root` (absolute) and its missing parents; false when it was already a folder. */
export async function makeVaultFolder(root: string): Promise<boolean> {
  const missing: string[] = [];
  let at = root;
  for (;;) {
    const stats = await fs.stat(at).catch((err: NodeJS.ErrnoException) => err);
    if (!(stats instanceof Error)) {
      if (!stats.isDirectory())
        throw refused(root, at === root ? `it is a file, not a folder` : `${at} is a file, not a folder`);
      break;
    }
    if (stats.code === 'ENOTDIR') {
      missing.unshift(at);
      at = path.dirname(at);
      continue;
    }
    if (stats.code !== 'ENOENT') throw refused(root, reason(stats, at));
    const parent = path.dirname(at);
    missing.unshift(at);
    if (parent === at) break;
    at = parent;
  }
  for (const dir of missing) {
    try {
      await fs.mkdir(dir);
    } catch (err) {
      const error = err as NodeJS.ErrnoException;
      if (error.code === 'EEXIST' && (await fs.stat(dir).catch(() => undefined))?.isDirectory()) continue;
      throw refused(root, reason(error, path.dirname(dir)));
    }
  }
  return missing.length > 0;
}

function reason(err: NodeJS.ErrnoException, parent: string): string {
  switch (err.code) {
    case 'ENOENT':
      return `the file system at ${parent} does not take new folders (ENOENT)`;
    case 'EACCES':
    case 'EPERM':
      return `no permission to create folders in ${parent} (${err.code})`;
    case 'EROFS':
      return `${parent} is on a read-only file system (EROFS)`;
    case 'ENOSPC':
      return `no space left on the device holding ${parent} (ENOSPC)`;
    case 'ENAMETOOLONG':
      return 'the path is too long for the file system (ENAMETOOLONG)';
    default:
      return `${err.code ?? 'error'}: ${err.message}`;
  }
}

function refused(root: string, why: string): ConfigError {
  return new ConfigError(`cannot use ${root} as the vault folder: ${why}`, { path: root, reason: why });
}
