/**
 * What the file system says when a backend cannot use its folder (decision 038): a vault folder
 * this user may not write, and why a file failed to open when SQLite only says "disk I/O error"
 * or "unable to open database file".
 */
import fs from 'node:fs';
import path from 'node:path';
import { BackendUnavailableError, systemFault, type NotekernelError } from '../../kernel/errors.js';

/** Why the vault's folder cannot be written (a read-only file system, no permission), or undefined. */
export async function unwritableFolder(root: string): Promise<string | undefined> {
  try {
    await fs.promises.access(root, fs.constants.W_OK);
    return undefined;
  } catch (err) {
    const fault = systemFault(err, '.');
    if (fault?.code === 'read_only') return "the vault's file system is read-only";
    if (fault?.code === 'permission_denied') return "this user may not write the vault's folder";
    return undefined;
  }
}

/**
 * The fault behind a file that would not open, as the catalogue names it: the error's own code
 * when it has one, else a full disk or an unwritable folder as the file system tells, else
 * `backend_unavailable` with SQLite's words. `file` is named relative to `root`.
 */
export function openFault(err: unknown, file: string, root: string): NotekernelError {
  const name = path.relative(root, file);
  const direct = systemFault(err, name);
  if (direct) return direct;
  const dir = path.dirname(file);
  try {
    if (fs.statfsSync(dir).bavail === 0) return systemFault({ code: 'ENOSPC' }, name) as NotekernelError;
  } catch {
    // no answer: the access check below, or the error as it was given
  }
  try {
    fs.accessSync(dir, fs.constants.W_OK);
  } catch (denied) {
    const fault = systemFault(denied, path.relative(root, dir) || '.');
    if (fault) return fault;
  }
  const message = (err instanceof Error ? err.message : String(err)).split('\n')[0];
  return new BackendUnavailableError(
    `${name}: ${message}.`,
    { path: name, cause: (err as { code?: string }).code ?? 'unknown' },
    err,
  );
}

/** Whether a fault is the environment's (space, permission, read-only), which a stand-in can work around. */
export function isEnvironmentFault(fault: NotekernelError): boolean {
  return fault.code === 'no_space' || fault.code === 'permission_denied' || fault.code === 'read_only';
}
