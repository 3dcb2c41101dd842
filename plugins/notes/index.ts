/**
 * notes: seed 000's note operations over the kernel's one write path: create, read (one or
 * many, with field filtering), update (content_hash required), rename, move, delete (with
 * confirmation and backups), listings and a deterministic analysis; plus the recent and stats
 * resources. Other plugins are met through their tokens and are optional: NOTE_TYPES, SCHEMA,
 * LINKS, VAULT_CONFIG and BACKUPS each add to an answer when loaded and are skipped when not.
 */
import { definePlugin } from '../../kernel/plugin.js';
import { noteResources } from './resources.js';
import { analyzeNoteTool } from './tools/analyze-note.js';
import { bulkDeleteNotesTool } from './tools/bulk-delete-notes.js';
import { createNoteTool } from './tools/create-note.js';
import { deleteNoteTool } from './tools/delete-note.js';
import { getNoteInfoTool } from './tools/get-note-info.js';
import { getNoteTool } from './tools/get-note.js';
import { getNotesTool } from './tools/get-notes.js';
import { listNotesByTypeTool } from './tools/list-notes-by-type.js';
import { moveNoteTool } from './tools/move-note.js';
import { renameNoteTool } from './tools/rename-note.js';
import { updateNoteTool } from './tools/update-note.js';

export {
  createNoteTool,
  getNoteTool,
  getNotesTool,
  updateNoteTool,
  renameNoteTool,
  moveNoteTool,
  deleteNoteTool,
  bulkDeleteNotesTool,
  getNoteInfoTool,
  listNotesByTypeTool,
  analyzeNoteTool,
};

export const notesPlugin = definePlugin<Record<string, never>>({
  id: 'notes',
  description:
    'Note operations in seed 000 (flint) shapes: content hashes on every read, required on every update; field filtering; safe deletes.',
  dependsOn: ['note-types'],
  register(ctx) {
    return {
      tools: [
        createNoteTool,
        getNoteTool,
        getNotesTool,
        updateNoteTool,
        renameNoteTool,
        moveNoteTool,
        deleteNoteTool,
        bulkDeleteNotesTool,
        getNoteInfoTool,
        listNotesByTypeTool,
        analyzeNoteTool,
      ],
      resources: noteResources(ctx.store),
    };
  },
});
