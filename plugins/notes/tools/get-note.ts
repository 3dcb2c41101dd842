import { z } from 'zod';
import { defineTool } from '../../../kernel/tool.js';
import { vaultIdField } from '../../../kernel/vault-id.js';
import { filterFields } from '../../../toolkit/fields.js';
import { noteOutput, renderNote } from '../render.js';

export const fieldsField = z
  .array(z.string())
  .optional()
  .describe('Return only these fields: id, type, title, content, content_hash, created, updated, metadata.<key>, metadata.*');

export const getNoteTool = defineTool({
  name: 'get_note',
  description: 'Get a note by identifier ("type/filename.md"), with its content_hash for later updates. Use fields to trim the answer.',
  input: z.object({
    identifier: z.string().min(1).describe('Note id, e.g. "general/my-note.md"'),
    fields: fieldsField,
    vault_id: vaultIdField,
  }),
  output: noteOutput,
  annotations: { title: 'Get note', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async handler(args, ctx) {
    const note = await ctx.notes.require(args.identifier);
    return filterFields(renderNote(note), args.fields);
  },
});
