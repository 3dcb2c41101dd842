/**
 * The NOTE_TYPES service over the vault's folders: what types a vault has and what each
 * `_description.md` says. Other plugins (schema, notes) reach it through the token, never through this file.
 */
import fsSync from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { toNotekernelError } from '../../kernel/errors.js';
import type { VaultFiles } from '../../kernel/backend.js';
import { contentHash } from '../../toolkit/hash.js';
import { fileStamp } from '../../toolkit/files/file-stamp.js';
import { parseDescription } from './description.js';
import type { NoteTypeInfo, NoteTypes } from './service.js';

export function createNoteTypes(listTypes: () => Promise<string[]>, files: VaultFiles): NoteTypes {
  const descriptionPath = (name: string) => `${name}/_description.md`;
  // Every write asks for its type's schema, so reads are cached, checked against the file's
  // identity (inode, size, times) with one stat: an edit by anyone is seen on the next call.
  const cache = new Map<string, { absolute: string; stamp?: string; info?: NoteTypeInfo }>();
  const read = async (name: string): Promise<NoteTypeInfo | undefined> => {
    const raw = await files.readText(descriptionPath(name));
    const folder = files.resolve(name);
    if (raw === undefined && !(await isDirectory(folder))) return undefined;
    return {
      name,
      path: folder,
      description: parseDescription(raw ?? '', name),
      hasDescription: raw !== undefined,
      contentHash: raw === undefined ? '' : contentHash(raw),
      ...(raw !== undefined ? { rawDescription: raw } : {}),
    };
  };
  const get = async (name: string): Promise<NoteTypeInfo | undefined> => {
    let entry = cache.get(name);
    if (!entry) {
      entry = { absolute: files.resolve(descriptionPath(name)) }; // refuses a traversing name, as read() would
      if (cache.size > 1000) cache.clear();
      cache.set(name, entry);
    }
    // Without a description the folder's identity is the key: the file appearing, or the folder
    // going or being replaced, changes it (a note added to the folder does not).
    const stamp =
      (await fileStamp(entry.absolute)) ??
      `no description; folder ${await folderIdentity(path.dirname(entry.absolute))}`;
    if (stamp === entry.stamp) return entry.info;
    // A miss always reads through files.readText, which re-checks containment (symlinks included).
    const info = await read(name);
    entry.stamp = stamp;
    entry.info = info;
    return info;
  };
  return {
    descriptionPath,
    get,
    async list() {
      const names = await listTypes();
      const infos = await Promise.all(
        names.map((name) => get(name).catch((err: unknown) => unreadableType(name, files.resolve(name), err))),
      );
      return infos.filter((i): i is NoteTypeInfo => i !== undefined);
    },
  };
}

function unreadableType(name: string, folder: string, err: unknown): NoteTypeInfo {
  const reason = toNotekernelError(err);
  return {
    name,
    path: folder,
    description: parseDescription('', name),
    hasDescription: false,
    contentHash: '',
    unreadable: `${reason.code}: ${reason.message}`,
  };
}

async function folderIdentity(absolute: string): Promise<string> {
  try {
    const st = fsSync.statSync(absolute, { bigint: true, throwIfNoEntry: false });
    return !st ? 'missing' : st.isDirectory() ? `${st.dev}:${st.ino}` : 'not a folder';
  } catch {
    return 'missing';
  }
}

async function isDirectory(absolute: string): Promise<boolean> {
  try {
    return (await fs.stat(absolute)).isDirectory();
  } catch {
    return false;
  }
}
