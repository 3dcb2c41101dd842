import { z } from 'zod';
import { NotFoundError } from '../../../kernel/errors.js';
import type { NoteSummary } from '../../../kernel/note.js';
import { locationOf } from '../../../toolkit/note-location.js';
import { defineTool } from '../../../kernel/tool.js';
import { assertTypeName } from '../../../toolkit/type-name.js';
import { noteRowOutput } from '../render.js';
import { limitField, nameString, vaultIdField } from '../../../toolkit/tool-fields.js';

/** seed 000's note row for listings: the stable id plus the wikilink forms an agent can paste. */
export function noteRow(n: NoteSummary) {
  const stem = locationOf(n).filename.replace(/\.md$/i, '');
  return {
    id: n.id,
    filename: stem,
    title: n.title,
    type: n.type,
    path: n.path,
    created: n.created,
    modified: n.updated,
    wikilink_format: `${n.type}/${stem}`,
    suggested_wikilink: `[[${n.type}/${stem}|${n.title}]]`,
  };
}

export const listNotesByTypeTool = defineTool({
  name: 'list_notes_by_type',
  description: 'Notes of one type, latest updated first, with ids and ready-made wikilinks.',
  input: z.object({
    type: nameString().min(1).describe('Note type'),
    limit: limitField(50, 1000),
    vault_id: vaultIdField,
  }),
  output: z.object({ result: z.array(z.object(noteRowOutput)) }),
  annotations: { title: 'List notes by type', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  requires: ['typed-notes'],
  async handler(args, ctx) {
    const type = assertTypeName(args.type, 'type');
    const types = (await ctx.notes.store.listTypes?.()) ?? [];
    if (!types.includes(type))
      throw new NotFoundError(`Note type '${type}' does not exist. Available types: ${types.join(', ')}`, {
        type_name: type,
        available: types,
      });
    const notes = await ctx.notes.list({ type, limit: args.limit, orderBy: 'updated', direction: 'desc' });
    return notes.map(noteRow);
  },
});
