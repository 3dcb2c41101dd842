import { z } from 'zod';
import { defineTool } from '../../../kernel/tool.js';
import { vaultIdField } from '../../../kernel/vault-id.js';
import { filterFields } from '../../../toolkit/fields.js';
import { noteOutput, renderNote } from '../render.js';
import { noteIdField } from '../../../toolkit/tool-fields.js';

export const fieldsField = z
  .array(z.string())
  .optional()
  .describe('Only these: id, type, title, content, content_hash, created, updated, metadata.<key>, metadata.*');

export const getNoteTool = defineTool({
  name: 'get_note',
  description: 'A note by id, with the content_hash writes to it need.',
  input: z.object({
    identifier: noteIdField,
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
