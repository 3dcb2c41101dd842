import { z } from 'zod';
import { ContentHashMismatchError, ValidationError, toNotekernelError } from '../../../kernel/errors.js';
import type { Metadata } from '../../../kernel/note.js';
import { defineTool, type ToolContext } from '../../../kernel/tool.js';
import { vaultIdField } from '../../../kernel/vault-id.js';
import { schemaWarnings, withWarnings } from '../schema-warnings.js';

const HASH_REQUIRED = 'content_hash is required: read the note (get_note or get_notes) and pass its content_hash';

const contentField = z.string().optional().describe('New markdown body (omit to keep the current one)');
const metadataField = z
  .record(z.string(), z.unknown())
  .optional()
  .describe('Metadata fields to set, merged into the existing ones; a null value removes that field');

const updateItem = z.object({
  identifier: z.string().min(1).describe('Note id, e.g. "general/my-note.md"'),
  content: contentField,
  metadata: metadataField,
  content_hash: z.string({ error: HASH_REQUIRED }).min(1, HASH_REQUIRED).describe('content_hash from the last read of this note'),
});

type UpdateItem = z.output<typeof updateItem>;

export const updateNoteTool = defineTool({
  name: 'update_note',
  description:
    'Update a note\'s content and/or metadata (content_hash required), or many at once (updates: [...], each with its own content_hash). A stale hash fails with content_hash_mismatch.',
  input: z
    .object({
      identifier: z.string().min(1).optional().describe('Note id (single update)'),
      content: contentField,
      metadata: metadataField,
      content_hash: z.string().min(1, HASH_REQUIRED).optional().describe('content_hash from the last read of the note (single update; required)'),
      updates: z.array(updateItem).min(1).max(1000).optional().describe('Batch: [{identifier, content?, metadata?, content_hash}]'),
      vault_id: vaultIdField,
    })
    .superRefine((args, issue) => {
      if (args.updates !== undefined) {
        if (args.identifier !== undefined) issue.addIssue({ code: 'custom', path: ['identifier'], message: 'Give either identifier (one note) or updates (a batch), not both' });
        return;
      }
      if (args.identifier === undefined) issue.addIssue({ code: 'custom', path: ['identifier'], message: 'Required (or pass updates: [...] for a batch)' });
      if (args.content_hash === undefined) issue.addIssue({ code: 'custom', path: ['content_hash'], message: HASH_REQUIRED });
    }),
  annotations: { title: 'Update note', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  async handler(args, ctx) {
    if (args.updates) return updateBatch(args.updates, ctx);
    return applyUpdate(ctx, {
      identifier: args.identifier as string,
      content_hash: args.content_hash as string,
      ...(args.content !== undefined ? { content: args.content } : {}),
      ...(args.metadata !== undefined ? { metadata: args.metadata } : {}),
    });
  },
});

async function applyUpdate(ctx: ToolContext, item: UpdateItem) {
  if (item.content === undefined && item.metadata === undefined) {
    throw new ValidationError('Either content or metadata must be provided for an update.', { field: 'content', identifier: item.identifier });
  }
  const metadata = item.metadata as Metadata | undefined;
  const note = await ctx.notes.update(
    item.identifier,
    { ...(item.content !== undefined ? { content: item.content } : {}), ...(metadata !== undefined ? { metadata } : {}) },
    item.content_hash,
  );
  const warnings = metadata ? await schemaWarnings(ctx, note.type, note.metadata, 'update', Object.keys(metadata)) : [];
  return { id: note.id, updated: true, timestamp: note.updated, content_hash: note.contentHash, ...withWarnings(warnings) };
}

async function updateBatch(updates: UpdateItem[], ctx: ToolContext) {
  const results = [];
  ctx.progress.start('updating notes', updates.length);
  // In order, one at a time: two updates of one note in a batch then behave as two sequential calls.
  for (const input of updates) {
    try {
      results.push({ input, success: true, result: await applyUpdate(ctx, input) });
    } catch (err) {
      const error = toNotekernelError(err);
      const mismatch = error instanceof ContentHashMismatchError ? { hash_mismatch: { current_hash: error.details.current_hash, provided_hash: error.details.provided_hash } } : {};
      results.push({ input, success: false, error: error.message, code: error.code, ...mismatch });
    }
    ctx.progress.tick();
  }
  ctx.progress.stop();
  const successful = results.filter((r) => r.success).length;
  return { total: updates.length, successful, failed: updates.length - successful, results };
}
