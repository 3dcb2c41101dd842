import type { NoteSummary } from '../kernel/note.js';

/** The file facts of a note, or stand-ins for a store without files: its id, and its content's UTF-8 size when known. */
export function locationOf(note: Pick<NoteSummary, 'id' | 'path' | 'filename' | 'size'> & { content?: string }): {
  path: string;
  filename: string;
  size: number;
} {
  return {
    path: note.path ?? note.id,
    filename: note.filename ?? note.id,
    size: note.size ?? (note.content !== undefined ? Buffer.byteLength(note.content) : 0),
  };
}
