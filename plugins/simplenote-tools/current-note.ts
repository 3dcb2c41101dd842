/** The note a write starts from: it must exist and still be at the version the caller read. */
import { ContentHashMismatchError, NotFoundError } from '../../kernel/errors.js';
import type { Note } from '../../kernel/note.js';
import type { NoteService } from '../../kernel/notes.js';
import { VersionConflictError } from './errors.js';
import { versionOf } from './note-data.js';

export async function noteAtVersion(
  notes: NoteService,
  id: string,
  localVersion: number,
  serverVersion?: number,
): Promise<Note> {
  const note = await notes.get(id);
  if (!note)
    throw new NotFoundError(`id: no note ${id} (deleted, or never existed). Nothing was written.`, {
      field: 'id',
      identifier: id,
    });
  const current = versionOf(note);
  if (current !== localVersion) throw new VersionConflictError(id, localVersion, current);
  if (serverVersion !== undefined && serverVersion !== current)
    throw new VersionConflictError(id, serverVersion, current, 'server_version');
  return note;
}

/** A write whose compare-and-swap lost (the note changed between our read and our write) is a version conflict too. */
export async function orVersionConflict<T>(id: string, localVersion: number, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (err instanceof ContentHashMismatchError) throw new VersionConflictError(id, localVersion, undefined);
    throw err;
  }
}
