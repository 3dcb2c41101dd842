/**
 * delete_note_type's 'migrate': every note moves to the target type, or none does. Clashing
 * filenames are found before anything moves; a move failing midway moves the earlier ones back.
 */
import { ConflictError, toNotekernelError } from '../../../kernel/errors.js';
import type { Note } from '../../../kernel/note.js';
import type { NoteService } from '../../../kernel/notes.js';

export async function migrateNotes(notes: NoteService, list: readonly Note[], target: string): Promise<void> {
  const clashes = (await Promise.all(list.map(async (n) => ((await notes.get(`${target}/${n.filename}`)) ? `${target}/${n.filename}` : undefined)))).filter(
    (id): id is string => id !== undefined,
  );
  if (clashes.length) {
    throw new ConflictError(`Cannot migrate to '${target}': it already has notes with the same filename: ${clashes.join(', ')}. Nothing was moved.`, {
      target_type: target,
      conflicts: clashes,
    });
  }
  const moved: Note[] = [];
  for (const note of list) {
    try {
      moved.push(await notes.move(note.id, target, note.contentHash));
    } catch (err) {
      const error = toNotekernelError(err);
      const notRestored: string[] = [];
      for (const done of moved.reverse()) {
        const from = list.find((n) => n.filename === done.filename)?.type ?? '';
        await notes.move(done.id, from, done.contentHash).catch(() => notRestored.push(done.id));
      }
      throw new ConflictError(`Migrating ${note.id} to '${target}' failed (${error.message}); ${moved.length - notRestored.length} note(s) already moved were moved back and the type was kept.`, {
        failed: note.id,
        cause: error.toBody(),
        ...(notRestored.length ? { not_restored: notRestored } : {}),
      });
    }
  }
}
