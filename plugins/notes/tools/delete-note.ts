import { z } from 'zod';
import { defineTool } from '../../../kernel/tool.js';
import { deleteNoteSafely } from '../deletion.js';
import { bool, str } from '../../../toolkit/tool-output.js';
import { deletedOutput } from '../render.js';
import { noteIdField, vaultIdField } from '../../../toolkit/tool-fields.js';

export const deleteNoteTool = defineTool({
  name: 'delete_note',
  description:
    'Delete a note, backed up under .flint-note/backups. Needs confirm: true unless the vault config waives it and no note links here.',
  input: z.object({
    identifier: noteIdField,
    confirm: z.boolean().default(false).describe('Confirms the deletion'),
    content_hash: z.string().min(1).optional().describe('Delete only if the note still has this hash'),
    soft: z
      .boolean()
      .default(false)
      .describe('Keep the file under .flint-note/backups even if the vault config turns backups off'),
    vault_id: vaultIdField,
  }),
  output: z.object({ success: bool, message: str, result: deletedOutput }),
  annotations: {
    title: 'Delete note',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: false,
  },
  async handler(args, ctx) {
    const result = await deleteNoteSafely(ctx, args.identifier, {
      confirm: args.confirm,
      ...(args.content_hash !== undefined ? { expectedHash: args.content_hash } : {}),
      soft: args.soft,
    });
    const message = result.soft
      ? `Note '${result.id}' soft-deleted: gone from the vault's notes, its file kept at ${result.backup_path ?? ''}`
      : `Note '${result.id}' deleted successfully`;
    return { success: true, message, result };
  },
});
