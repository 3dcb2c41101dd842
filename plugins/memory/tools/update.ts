import { z } from 'zod';
import { ValidationError } from '../../../kernel/errors.js';
import { defineTool } from '../../../kernel/tool.js';
import { entryId, idField } from '../entry-id.js';
import { timestampForm } from '../options.js';
import { spellings, speltRequired } from '../spellings.js';
import { entryView, entryViewOutput } from '../view.js';
import { nameString } from '../../../toolkit/tool-fields.js';

/**
 * Changes an entry's body and/or tags (title: memory_rename). The `contentHash` from
 * memory_read is required (`content_hash` works too, as the server's instructions spell it):
 * an entry changed since that read is refused with content_hash_mismatch (both hashes in the
 * details) instead of being overwritten.
 */
export const memoryUpdate = defineTool({
  name: 'memory_update',
  description:
    "Change an entry's body and/or tags. Pass the contentHash from memory_read; a stale hash is refused (read again, then retry). Rename with memory_rename.",
  input: z.object({
    id: idField,
    ...spellings('contentHash', 'content_hash', z.string().min(1), 'required: the contentHash memory_read returned'),
    body: z.string().optional().describe('the new markdown body (replaces the old one)'),
    tags: z
      .array(nameString())
      .optional()
      .describe('the new tags (replace the old ones), e.g. ["people", "area__work"]'),
  }),
  output: entryViewOutput,
  annotations: {
    title: 'Update a memory',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  async handler(args, ctx) {
    const contentHash = speltRequired<string>(
      args,
      'contentHash',
      'content_hash',
      'read the entry with memory_read and pass its contentHash',
    );
    if (args.body === undefined && args.tags === undefined) {
      throw new ValidationError('Nothing to change: give body, tags or both.', { fields: ['body', 'tags'] });
    }
    const id = entryId(args.id);
    await ctx.notes.require(id);
    const { note: updated } = await ctx.notes.update(
      id,
      {
        ...(args.body !== undefined ? { content: args.body } : {}),
        ...(args.tags !== undefined ? { tags: args.tags } : {}),
      },
      contentHash,
    );
    return entryView(updated, timestampForm(ctx));
  },
});
