import { z } from 'zod';
import { defineTool } from '../../../kernel/tool.js';
import { filterFields } from '../../../toolkit/fields.js';
import { noteOutput, renderNote } from '../render.js';
import { noteRefField, vaultIdField } from '../../../toolkit/tool-fields.js';
import { requireNoteRef } from '../note-ref.js';

export const fieldsField = z
  .array(z.string())
  .optional()
  .describe('Only these: id, type, title, content, content_hash, created, updated, metadata.<key>, metadata.*');

export const getNoteTool = defineTool({
  name: 'get_note',
  description:
    'A note by id, title or filename (as the link tools resolve them), with the content_hash writes to it need.',
  input: z.object({
    identifier: noteRefField,
    fields: fieldsField,
    vault_id: vaultIdField,
  }),
  output: noteOutput,
  annotations: { title: 'Get note', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async handler(args, ctx) {
    const note = await requireNoteRef(ctx, args.identifier);
    return filterFields(renderNote(note), args.fields);
  },
});
