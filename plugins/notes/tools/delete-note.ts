import { z } from 'zod';
import { defineTool } from '../../../kernel/tool.js';
import { vaultIdField } from '../../../kernel/vault-id.js';
import { deleteNoteSafely } from '../deletion.js';
import { bool, str } from '../../../kernel/tool-output.js';
import { deletedOutput } from '../render.js';

export const deleteNoteTool = defineTool({
  name: 'delete_note',
  description:
    'Delete a note. Needs confirm: true when the vault config requires confirmation (the default) or other notes link to it; a backup is kept under .flint-note/backups.',
  input: z.object({
    identifier: z.string().min(1).describe('Note id, e.g. "general/old-idea.md"'),
    confirm: z.boolean().default(false).describe('Set true to confirm the deletion'),
    content_hash: z.string().min(1).optional().describe('Optional: delete only if the note still has this content_hash'),
    vault_id: vaultIdField,
  }),
  output: z.object({ success: bool, message: str, result: deletedOutput }),
  annotations: { title: 'Delete note', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  async handler(args, ctx) {
    const result = await deleteNoteSafely(ctx, args.identifier, {
      confirm: args.confirm,
      ...(args.content_hash !== undefined ? { expectedHash: args.content_hash } : {}),
    });
    return { success: true, message: `Note '${result.id}' deleted successfully`, result };
  },
});
