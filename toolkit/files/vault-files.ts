/**
 * Raw, contained, atomic file access for plugin-owned files (a type's `_description.md`, a
 * backup). Every path goes through `resolveInside`; writes can be compare-and-swap on a hash.
 */
import fs from 'node:fs/promises';
import type { VaultFiles } from '../../kernel/backend.js';
import { ContentHashMismatchError, ValidationError } from '../../kernel/errors.js';
import { writeFileAtomic } from './atomic-write.js';
import { contentHash } from '../hash.js';
import { assertReadableFrontmatter } from '../markdown/frontmatter.js';
import type { WriteLocks } from './write-locks.js';
import { resolveInside } from './paths.js';
import { isSkipped, readSmallFile } from './small-file.js';

export function createVaultFiles(root: string, locks: WriteLocks): VaultFiles {
  const readText = async (relPath: string): Promise<string | undefined> => {
    // Never a FIFO (it would hold a thread until a writer came) nor a hard link (maybe a file outside).
    const read = await readSmallFile(resolveInside(root, relPath));
    if (isSkipped(read))
      throw new ValidationError(`${relPath} is not read: ${read.skipped}.`, { path: relPath, reason: read.skipped });
    return read?.bytes.toString('utf8');
  };
  /** The compare of a compare-and-swap: '' stands for no file. */
  const expectHash = async (relPath: string, expected: string | undefined): Promise<void> => {
    if (expected === undefined) return;
    const current = await readText(relPath);
    const currentHash = current === undefined ? '' : contentHash(current);
    if (currentHash !== expected) throw new ContentHashMismatchError(currentHash, expected, { path: relPath });
  };
  return {
    root,
    resolve: (relPath) => resolveInside(root, relPath),
    readText,
    async writeText(relPath, text, options = {}) {
      const absolute = resolveInside(root, relPath);
      // A markdown file written raw (a card) is a note on the next scan: refuse what no reader could read back.
      if (relPath.toLowerCase().endsWith('.md')) assertReadableFrontmatter(text, relPath);
      return locks.run(absolute, async () => {
        await expectHash(relPath, options.expectedHash);
        await writeFileAtomic(absolute, text);
        return { contentHash: contentHash(text) };
      });
    },
    async exists(relPath) {
      try {
        await fs.access(resolveInside(root, relPath));
        return true;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
        throw err;
      }
    },
    async listDir(relPath) {
      const target = relPath === '' || relPath === '.' ? root : resolveInside(root, relPath);
      const entries = await fs.readdir(target, { withFileTypes: true });
      return entries.map((e) => ({ name: e.name, isDirectory: e.isDirectory() }));
    },
    async mkdir(relPath) {
      await fs.mkdir(resolveInside(root, relPath), { recursive: true });
    },
    async remove(relPath, options = {}) {
      const absolute = resolveInside(root, relPath);
      await locks.run(absolute, async () => {
        await expectHash(relPath, options.expectedHash);
        await fs.rm(absolute, { force: true });
      });
    },
  };
}
