/**
 * Writing a note's file as exact text (an Obsidian vault's own bytes: frontmatter as the user
 * wrote it, no keys added), yet through the kernel's bookkeeping: the file is written atomically
 * under the store's lock with a compare-and-swap on its hash (`files.writeText`), then read back
 * through the store (which indexes it) and announced to NoteService, so links, tags and a separate
 * search index see it at once, as a tool's write, without waiting for the watcher.
 */
import type { VaultFiles } from '../../kernel/backend.js';
import type { Note } from '../../kernel/note.js';
import type { NoteService } from '../../kernel/notes.js';
import { contentHash } from '../hash.js';

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

/** NoteService.writeText: the exact text, compare-and-swapped, indexed and announced. */
export async function writeNoteText(
  notes: NoteService,
  files: VaultFiles,
  relPath: string,
  text: string,
  expectedHash: string | null,
): Promise<Note | undefined> {
  void files; // the store's own files: NoteService reaches them itself
  return notes.writeText(relPath, text, expectedHash);
}
