/**
 * The store's `files`: plugin-owned files (a type's `_description.md`, the vault config, backups)
 * in the vault's local folder, as every file store keeps them, and each note shown at its id
 * (`<type>/<name>.md`) as its markdown text, read from and written to the database. A raw write
 * of a note's text (a saved card, decision 044's exact-text writes) is therefore a
 * compare-and-swap on the note's row, seen at once by every host; the local files are this host's
 * alone (decision 048 says what that means for type definitions).
 */
import type { VaultFiles } from '../../kernel/backend.js';
import { ContentHashMismatchError } from '../../kernel/errors.js';
import { typeNameProblem } from '../../toolkit/type-name.js';
import type { PgNoteStore } from './store.js';

const NOTE_PATH = /^([^/]+)\/([^/]+\.md)$/i;

/** Whether a vault-relative path names a note (`<type>/<name>.md`, a valid type, not `_` or `.` first). */
export function readsNoteAt(relPath: string): boolean {
  const match = NOTE_PATH.exec(relPath.replace(/^\.\//, ''));
  if (!match) return false;
  const [, type, name] = match as unknown as [string, string, string];
  return typeNameProblem(type) === undefined && !name.startsWith('_') && !name.startsWith('.');
}

export function filesWithNotes(local: VaultFiles, store: () => PgNoteStore): VaultFiles {
  return {
    root: local.root,
    resolve: (relPath) => local.resolve(relPath),
    async readText(relPath) {
      local.resolve(relPath); // refuses what leaves the vault, as for any file
      return readsNoteAt(relPath) ? store().textOf(relPath) : local.readText(relPath);
    },
    async writeText(relPath, text, options = {}) {
      local.resolve(relPath);
      if (!readsNoteAt(relPath)) return local.writeText(relPath, text, options);
      const note = await store().putText(relPath, text, options.expectedHash);
      return { contentHash: note.contentHash };
    },
    async exists(relPath) {
      local.resolve(relPath);
      return readsNoteAt(relPath) ? (await store().get(relPath)) !== undefined : local.exists(relPath);
    },
    async listDir(relPath) {
      const folder = relPath.replace(/^\.\/?|\/$/g, '');
      const entries = await local.listDir(relPath).catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') return [];
        throw err;
      });
      const names = new Set(entries.map((e) => e.name));
      // The notes' "files": a type is a folder at the root, its notes the files inside it.
      const extra =
        folder === ''
          ? (await store().listTypes()).map((type) => ({ name: type, isDirectory: true }))
          : typeNameProblem(folder) === undefined
            ? (await store().list({ type: folder })).map((n) => ({ name: n.filename!, isDirectory: false }))
            : [];
      return [...entries, ...extra.filter((e) => !names.has(e.name))];
    },
    mkdir: (relPath) => local.mkdir(relPath),
    async remove(relPath, options = {}) {
      local.resolve(relPath);
      if (!readsNoteAt(relPath)) return local.remove(relPath, options);
      const current = await store().get(relPath);
      if (options.expectedHash !== undefined && (current?.contentHash ?? '') !== options.expectedHash)
        throw new ContentHashMismatchError(current?.contentHash ?? '', options.expectedHash, { path: relPath });
      if (current) await store().delete(relPath, current.contentHash);
    },
  };
}
