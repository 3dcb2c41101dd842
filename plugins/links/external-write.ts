/**
 * How a write the server did not make lands in the link index. Moves and renames done outside
 * the server (an editor, `mv`, `git pull`) show up only as writes: each is looked at alone, and
 * one the runtime should follow with an automatic repair is reported as such.
 */
import type { NoteStore } from '../../kernel/backend.js';
import type { WriteSource } from '../../kernel/hooks.js';
import type { Logger } from '../../kernel/logger.js';
import type { Note } from '../../kernel/note.js';
import { locationOf } from '../../toolkit/note-location.js';
import type { LinkIndexer } from './indexer.js';
import { stemOf } from './names.js';
import { noteRename } from './reconcile.js';
import type { LinkStore } from './store/types.js';
import type { VanishedNotes } from './vanished.js';

export interface ExternalWriteDeps {
  links: LinkStore;
  indexer: LinkIndexer;
  vanished: VanishedNotes;
  store: NoteStore;
  logger: Logger;
}

/** Indexes one written note; true when it was moved or renamed outside the server (a repair is due). */
export async function applyWrite(deps: ExternalWriteDeps, note: Note, source: WriteSource): Promise<boolean> {
  const { links, indexer, logger } = deps;
  const before = links.state(note.id);
  const twin = !before && source === 'external' ? await vanishedTwin(deps, note) : undefined;
  const gone = !before && !twin && source === 'external' ? deps.vanished.take(note.contentHash) : undefined;
  return links.transaction(() => {
    if (gone) {
      const result = indexer.apply(note);
      indexer.reresolve([...result.keys, ...indexer.adoptVanished(gone, note)]);
      logger.info(
        { from: gone.id, to: note.id },
        'note moved outside the server; links_repair rewrites its inbound links',
      );
      return true;
    }
    if (twin) {
      indexer.reresolve(indexer.move(twin, note, 'content_hash'));
      logger.info(
        { from: twin, to: note.id },
        'note moved outside the server; links_repair rewrites its inbound links',
      );
      return true;
    }
    const result = indexer.apply(note);
    if (result.keys.size) indexer.reresolve(result.keys);
    if (!result.changed) return false;
    if (
      source !== 'external' ||
      !before ||
      (before.title === note.title && before.stem === stemOf(locationOf(note).filename))
    )
      return false;
    noteRename(indexer, before, note);
    return true;
  });
}

/** An external create whose bytes match exactly one indexed note that is gone: a move. */
async function vanishedTwin(deps: ExternalWriteDeps, note: Note): Promise<string | undefined> {
  const candidates = deps.links.statesByHash(note.contentHash).filter((s) => s.note_id !== note.id);
  if (candidates.length !== 1) return undefined;
  const id = (candidates[0] as { note_id: string }).note_id;
  try {
    return (await deps.store.get(id)) ? undefined : id;
  } catch {
    return undefined;
  }
}
