/**
 * How obsidian-tools names files: a path relative to the vault (`Projects/Big Plan.md`), or an
 * absolute path inside it, as seed 004 accepts. Everything goes through the store's contained
 * resolution (no `..`, no symlink out, no NUL); on top of that, folders that belong to tools
 * rather than to the user's notes — any hidden folder (`.obsidian/`, `.git/`, `.trash/`, the
 * index's `.notekernel/`) and `node_modules/` — are refused, the same folders the vault scan never
 * enters (decision 022).
 */
import path from 'node:path';
import type { VaultFiles } from '../../kernel/backend.js';
import { PathOutsideVaultError, ValidationError } from '../../kernel/errors.js';

export interface VaultPath {
  /** Vault-relative, `/`-separated: also the note's id in the obsidian profile's flat layout. */
  rel: string;
  absolute: string;
}

/** A folder the scan never enters, or undefined. */
export function excludedSegment(rel: string): string | undefined {
  return rel.split('/').find((segment) => segment.startsWith('.') || segment === 'node_modules');
}

function toRelative(files: VaultFiles, input: string, field: string): string {
  const trimmed = input.trim();
  if (trimmed === '')
    throw new ValidationError(`${field} is empty: give a path relative to the vault, e.g. "Projects/Plan.md".`, {
      field,
    });
  if (!path.isAbsolute(trimmed)) return trimmed;
  const rel = path.relative(files.root, trimmed);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel))
    throw new PathOutsideVaultError(input, 'an absolute path must lie inside the vault');
  return rel.split(path.sep).join('/');
}

/** A path inside the vault, outside excluded folders. */
export function vaultPath(files: VaultFiles, input: string, field: string): VaultPath {
  const absolute = files.resolve(toRelative(files, input, field));
  const rel = path.relative(files.root, absolute).split(path.sep).join('/');
  const excluded = excludedSegment(rel);
  if (excluded !== undefined) {
    throw new ValidationError(
      `${field} "${input}" is in "${excluded}", a folder of tools rather than notes, which is never read or written.`,
      { field, path: input, excluded },
    );
  }
  return { rel, absolute };
}

/** A note's path: `.md` added when the name does not end with it (`Release 1.2` is `Release 1.2.md`). */
export function notePath(files: VaultFiles, input: string, field: string): VaultPath {
  const value = input.trim();
  return vaultPath(files, /\.md$/i.test(value) ? value : `${value}.md`, field);
}

/** A folder inside the vault; "", "." and "/" name the vault root itself. */
export function folderPath(files: VaultFiles, input: string, field: string): VaultPath {
  const value = input.trim();
  if (value === '' || value === '.' || value === '/' || (path.isAbsolute(value) && path.resolve(value) === files.root))
    return { rel: '', absolute: files.root };
  return vaultPath(files, value.replace(/\/+$/, ''), field);
}

/** The note name Obsidian links by: the file name without `.md`. */
export function noteName(rel: string): string {
  return path.posix.basename(rel).replace(/\.md$/i, '');
}
