/**
 * Where an agent may put or open a vault over the tools. Opening a folder as a vault lets the
 * agent read every markdown file in it, so `create_vault` and `switch_vault` accept only folders
 * strictly below an allowed root: by default the folder that holds the served vault (its
 * siblings), plus `allowed_roots` from the plugin's options. Never a hidden folder (another
 * vault's `.flint-note/`, `.git/`, `.ssh/`), never a system folder. The CLI's vault commands (`notekernel create`, `switch`, …),
 * used by a person, are not limited.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PathOutsideVaultError } from '../../kernel/errors.js';
import { isInside } from '../../toolkit/files/paths.js';

const SYSTEM_FOLDERS = [
  '/bin',
  '/boot',
  '/dev',
  '/etc',
  '/lib',
  '/lib32',
  '/lib64',
  '/proc',
  '/root',
  '/run',
  '/sbin',
  '/sys',
  '/usr',
  '/var',
  '/System',
  '/Library',
  '/Applications',
];

export interface VaultRootPolicy {
  roots: string[];
  /** The absolute folder `requested` names, or path_outside_vault naming the allowed roots. */
  check(requested: string): string;
}

/**
 * The default root is the served vault's parent, unless that parent is too broad (the file
 * system root, the home folder, a system folder): then only folders inside the vault itself.
 */
export function vaultRootPolicy(servedRoot: string, configured: readonly string[]): VaultRootPolicy {
  const parent = path.dirname(servedRoot);
  const broad = parent === path.parse(parent).root || samePath(parent, os.homedir()) || isSystemFolder(parent);
  const roots = unique([
    broad ? servedRoot : parent,
    ...configured.map((r) => realOrResolved(path.resolve(servedRoot, r))),
  ]);
  return {
    roots,
    check(requested) {
      const refuse = (reason: string) =>
        new PathOutsideVaultError(
          requested,
          `${reason}; over MCP a vault must be a folder below one of the allowed roots: ${roots.join(', ')} (configure more with plugins.vaults.allowed_roots, or use the notekernel CLI)`,
        );
      if (requested.includes('\0')) throw refuse('it contains a NUL byte');
      // A relative path is relative to the first allowed root: the agent has no working folder.
      const absolute = path.resolve(roots[0] as string, requested);
      const real = realOrResolved(absolute);
      const root = roots.find((r) => isInside(r, real) && !samePath(r, real));
      if (!root) throw refuse('it is not below an allowed root');
      if (
        path
          .relative(root, real)
          .split(path.sep)
          .some((segment) => segment.startsWith('.'))
      )
        throw refuse('hidden folders (metadata, .git) cannot be vaults');
      if (isSystemFolder(real) && !isSystemFolder(root)) throw refuse('it is a system folder');
      return real;
    },
  };
}

/** The real path of the deepest existing ancestor, the rest appended: symlinks cannot lead out. */
function realOrResolved(absolute: string): string {
  const rest: string[] = [];
  let current = absolute;
  for (;;) {
    try {
      return path.join(fs.realpathSync(current), ...rest.reverse());
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return absolute;
      rest.push(path.basename(current));
      current = parent;
    }
  }
}

function isSystemFolder(absolute: string): boolean {
  return (
    SYSTEM_FOLDERS.some((dir) => absolute === dir || absolute.startsWith(`${dir}/`)) ||
    /^[a-z]:\\windows(\\|$)/i.test(absolute)
  );
}

function samePath(a: string, b: string): boolean {
  return path.relative(a, b) === '';
}

function unique(values: string[]): string[] {
  return [...new Set(values)];
}
