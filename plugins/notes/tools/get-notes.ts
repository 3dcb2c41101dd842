import { z } from 'zod';
import { toNotekernelError } from '../../../kernel/errors.js';
import { defineTool } from '../../../kernel/tool.js';
import { pathString, vaultIdField } from '../../../toolkit/tool-fields.js';
import { filterFields } from '../../../toolkit/fields.js';
import { renderNote, noteOutput } from '../render.js';
import { fieldsField } from './get-note.js';
import { requireNoteRef } from '../note-ref.js';
import { bool, num, str } from '../../../toolkit/tool-output.js';

export const getNotesTool = defineTool({
  name: 'get_notes',
  description: 'Several notes by id, each with its content_hash; a missing one fails only its own item.',
  input: z.object({
    identifiers: z
      .array(pathString().min(1))
      .min(1)
      .max(500)
      .describe('Note ids ("type/filename.md"), titles or filenames'),
    fields: fieldsField,
    vault_id: vaultIdField,
  }),
  output: z.object({
    success: bool,
    results: z.array(
      z.object({ success: bool, note: noteOutput.optional(), error: str.optional(), code: str.optional() }),
    ),
    total_requested: num,
    successful: num,
    failed: num,
  }),
  annotations: { title: 'Get notes', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async handler(args, ctx) {
    // Reads run side by side: each is one file read, and the answer keeps the request's order.
    const results = await Promise.all(
      args.identifiers.map(async (identifier) => {
        try {
          const note = await requireNoteRef(ctx, identifier);
          return { success: true as const, note: filterFields(renderNote(note), args.fields) };
        } catch (err) {
          const error = toNotekernelError(err);
          return { success: false as const, error: error.message, code: error.code };
        }
      }),
    );
    const successful = results.filter((r) => r.success).length;
    return {
      success: true,
      results,
      total_requested: args.identifiers.length,
      successful,
      failed: results.length - successful,
    };
  },
});
