/**
 * notes: seed 000's note operations over the kernel's one write path.
 */
import { definePlugin } from '../../kernel/plugin.js';
import { createNoteTool } from './tools/create-note.js';
import { getNoteTool } from './tools/get-note.js';

export { createNoteTool, getNoteTool };

export const notesPlugin = definePlugin<Record<string, never>>({
  id: 'notes',
  description: 'Create and read notes in seed 000 (flint) shapes, with content hashes and field filtering.',
  dependsOn: ['note-types'],
  register() {
    return { tools: [createNoteTool, getNoteTool] };
  },
});
