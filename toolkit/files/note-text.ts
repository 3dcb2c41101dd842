/**
 * Writing a note's file as exact text (an Obsidian vault's own bytes: frontmatter as the user
 * wrote it, no keys added), yet through the kernel's bookkeeping: the file is written atomically
 * under the store's lock with a compare-and-swap on its hash (`files.writeText`), then read back
 * through the store (which indexes it) and announced to NoteService, so links, tags and a separate
 * search index see it at once, as a tool's write, without waiting for the watcher.
 */
import path from 'node:path';
import type { VaultFiles } from '../../kernel/backend.js';
import { ConflictError, ContentHashMismatchError } from '../../kernel/errors.js';
import type { Note } from '../../kernel/note.js';
import type { NoteService } from '../../kernel/notes.js';
import { contentHash } from '../../kernel/util/hash.js';

export interface NoteText {
  text: string;
  /** `sha256:` over the text's UTF-8 bytes, as every read reports it. */
  hash: string;
}

/** The file's text and hash, or undefined when there is no such file. */
export async function readNoteText(files: VaultFiles, relPath: string): Promise<NoteText | undefined> {
  const text = await files.readText(relPath);
  return text === undefined ? undefined : { text, hash: contentHash(text) };
}

/**
 * Writes `text` at `relPath` if the file is still at `expectedHash` (`null`: it must not exist yet),
 * and returns the note as the store now reads it — undefined when the store's layout keeps no
 * note there (a file at the root of a typed vault): the file is written, there is nothing to announce.
 */
export async function writeNoteText(notes: NoteService, files: VaultFiles, relPath: string, text: string, expectedHash: string | null): Promise<Note | undefined> {
  const previous = expectedHash === null ? undefined : await notes.get(relPath);
  const folder = path.posix.dirname(relPath);
  if (folder !== '.') await files.mkdir(folder);
  try {
    await files.writeText(relPath, text, { expectedHash: expectedHash ?? '' });
  } catch (err) {
    if (expectedHash === null && err instanceof ContentHashMismatchError) throw new ConflictError(`${relPath} already exists; nothing was overwritten.`, { path: relPath });
    throw err;
  }
  const note = await notes.get(relPath).catch(() => undefined);
  if (!note) return undefined;
  await notes.applyExternal({ kind: 'written', note, ...(previous ? { previous } : {}) }, 'tool');
  return note;
}
