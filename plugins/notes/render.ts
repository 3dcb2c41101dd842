/** The canonical note in seed 000's `get_note` shape (its key order too). */
import { locationOf, type Note } from '../../kernel/note.js';

export function renderNote(note: Note): Record<string, unknown> {
  return {
    id: note.id,
    type: note.type,
    filename: note.filename,
    path: note.path,
    title: note.title,
    content: note.content,
    content_hash: note.contentHash,
    metadata: note.metadata,
    created: note.created,
    modified: note.updated,
    updated: note.updated,
    size: note.size,
    ...(note.warnings ? { warnings: note.warnings } : {}),
  };
}

/** What create_note reports for each note it wrote. */
export function renderCreated(note: Note): { id: string; type: string | undefined; title: string; filename: string; path: string; created: string } {
  return { id: note.id, type: note.type, title: note.title, filename: locationOf(note).filename, path: locationOf(note).path, created: note.created };
}
