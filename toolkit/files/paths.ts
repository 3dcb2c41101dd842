/**
 * Containment for every path an input can name. Checks are structural (segments, realpath),
 * never a regex over the joined string: NUL bytes, absolute paths, drive letters, backslashes
 * and `..` segments are refused outright, and a symlink that leads out of the vault is caught
 * by resolving the deepest existing ancestor.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PathOutsideVaultError, ValidationError } from '../../kernel/errors.js';

/** Normalises a vault-relative path to `a/b/c` form, or throws `path_outside_vault`. */
export function normaliseRelative(input: string): string {
  if (typeof input !== 'string' || input.length === 0) throw new PathOutsideVaultError(String(input), 'it is empty');
  if (input.includes('\0')) throw new PathOutsideVaultError(input, 'it contains a NUL byte');
  if (input.includes('\\')) throw new PathOutsideVaultError(input, 'backslashes are not path separators here');
  if (path.posix.isAbsolute(input) || /^[a-zA-Z]:/.test(input))
    throw new PathOutsideVaultError(input, 'absolute paths are not allowed');
  const segments = input.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.some((s) => s === '..')) throw new PathOutsideVaultError(input, '".." segments are not allowed');
  if (segments.length === 0) throw new PathOutsideVaultError(input, 'it names the vault root itself');
  for (const segment of segments) {
    const reason = nonPortableReason(segment);
    if (reason)
      throw new ValidationError(`Path "${input}" is not allowed: "${segment}" ${reason}; choose another name.`, {
        field: 'path',
        path: input,
        reason,
      });
  }
  return segments.join('/');
}

/** Device names Windows reserves in every folder, with any extension (`con.md`, `COM1.txt`, `lpt¹`). */
const WINDOWS_RESERVED = /^(con|prn|aux|nul|conin\$|conout\$|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;

/**
 * Why a file or folder name cannot be synced to Windows, or undefined. Such a name opens a device
 * there (`nul.md`), or is silently renamed (a trailing dot or space is dropped): a vault stays
 * portable by refusing them on every platform.
 */
export function nonPortableReason(name: string): string | undefined {
  if (WINDOWS_RESERVED.test(name)) return 'is a device name reserved on Windows';
  if (/[. ]$/.test(name)) return 'ends with a dot or a space, which Windows drops';
  return undefined;
}

/**
 * Resolves a relative path inside `root` (already realpath'd), following symlinks of the
 * existing part of the path, and refuses anything that lands outside.
 */
export function resolveInside(root: string, relative: string): string {
  const rel = normaliseRelative(relative);
  const segments = rel.split('/');
  const absolute = path.join(root, ...segments);
  if (!isInside(root, absolute)) throw new PathOutsideVaultError(relative, 'it resolves outside the vault');
  if (mayCrossSymlink(root, segments) && !isInside(root, realpathOfExistingPrefix(absolute))) {
    throw new PathOutsideVaultError(relative, 'a symlink leads outside the vault');
  }
  return absolute;
}

/**
 * The root is real already, so only the components below it can redirect the path: lstat them
 * (usually two) and resolve fully only when one is a symlink. This runs on every note access;
 * a realpath from `/` costs a syscall per component and an exception per missing one.
 */
function mayCrossSymlink(root: string, segments: readonly string[]): boolean {
  let current = root;
  for (const segment of segments) {
    current = path.join(current, segment);
    let stats: fs.Stats | undefined;
    try {
      stats = fs.lstatSync(current, { throwIfNoEntry: false });
    } catch (err) {
      // ENOTDIR: a file stands where a folder would be, so nothing below it exists to follow.
      return (err as NodeJS.ErrnoException).code !== 'ENOTDIR';
    }
    if (!stats) return false; // nothing exists from here on
    if (stats.isSymbolicLink()) return true;
  }
  return false;
}

export function isInside(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  // `..notes` is a child; only `..` itself or `../...` leaves the root.
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${path.sep}`) && !path.isAbsolute(rel));
}

function realpathOfExistingPrefix(absolute: string, depth = 0): string {
  let current = absolute;
  const rest: string[] = [];
  for (;;) {
    try {
      const real = fs.realpathSync(current);
      return rest.length ? path.join(real, ...rest.reverse()) : real;
    } catch {
      // A dangling symlink cannot be realpath'd, yet writing through it lands at its target:
      // follow the link text itself (bounded, in case links point at each other).
      const target = danglingLinkTarget(current);
      if (target !== undefined && depth < 32) {
        return realpathOfExistingPrefix(path.join(target, ...rest.reverse()), depth + 1);
      }
      const parent = path.dirname(current);
      if (parent === current) return absolute;
      rest.push(path.basename(current));
      current = parent;
    }
  }
}

function danglingLinkTarget(candidate: string): string | undefined {
  try {
    if (!fs.lstatSync(candidate).isSymbolicLink()) return undefined;
    return path.resolve(path.dirname(candidate), fs.readlinkSync(candidate));
  } catch {
    return undefined;
  }
}

/** Turns an absolute path under root into the `/`-separated relative form ids use. */
export function toRelative(root: string, absolute: string): string {
  return path.relative(root, absolute).split(path.sep).join('/');
}
