/** The canonical note in seed 000's `get_note` shape (its key order too). */
import { z } from 'zod';
import type { Note } from '../../kernel/note.js';
import { locationOf } from '../../toolkit/note-location.js';

/** renderNote's answer as an output schema; every field optional, since `fields` may trim any. */
export const noteOutput = z
  .object({
    id: z.string(),
    type: z.string(),
    filename: z.string(),
    path: z.string(),
    title: z.string(),
    content: z.string(),
    content_hash: z.string(),
    metadata: z.record(z.string(), z.unknown()),
    created: z.string(),
    modified: z.string(),
    updated: z.string(),
    size: z.number(),
    warnings: z.array(z.string()),
  })
  .partial();

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
export function renderCreated(note: Note): {
  id: string;
  type: string | undefined;
  title: string;
  filename: string;
  path: string;
  created: string;
} {
  return {
    id: note.id,
    type: note.type,
    title: note.title,
    filename: locationOf(note).filename,
    path: locationOf(note).path,
    created: note.created,
  };
}

/** renderCreated's fields as an output schema. */
export const createdOutput = {
  id: z.string(),
  type: z.string(),
  title: z.string(),
  filename: z.string(),
  path: z.string(),
  created: z.string(),
};

/** noteRow's fields (list_notes_by_type, get_note_info) as an output schema. */
export const noteRowOutput = {
  id: z.string(),
  filename: z.string(),
  title: z.string(),
  type: z.string().optional(),
  path: z.string(),
  created: z.string(),
  modified: z.string(),
  wikilink_format: z.string(),
  suggested_wikilink: z.string(),
};

/** What a deletion reports for each note (DeleteOutcome). */
export const deletedOutput = z.object({
  id: z.string(),
  deleted: z.boolean(),
  soft: z.boolean().optional(),
  timestamp: z.string(),
  backup_path: z.string().optional(),
  warnings: z.array(z.string()).optional(),
  incoming_links: z.array(z.string()).optional(),
  code: z.string().optional(),
});
