import { z } from 'zod';
import { ValidationError, toNotekernelError } from '../../../kernel/errors.js';
import type { NoteSummary } from '../../../kernel/note.js';
import { defineTool, type ToolContext } from '../../../kernel/tool.js';
import { vaultIdField } from '../../../kernel/vault-id.js';
import { vaultConfig } from '../config.js';
import { deleteNoteSafely } from '../deletion.js';
import { bool, num, str } from '../../../kernel/tool-output.js';
import { deletedOutput } from '../render.js';
import { confirmField } from '../../../toolkit/tool-fields.js';

export const bulkDeleteNotesTool = defineTool({
  name: 'bulk_delete_notes',
  description:
    'Delete every note matching all criteria given (type, tags, pattern), at most max_bulk_delete; a refusal for want of confirm lists them.',
  input: z.object({
    type: z.string().min(1).optional().describe('Only notes of this type'),
    tags: z.array(z.string().min(1)).min(1).optional().describe('Only notes with all these tags'),
    pattern: z.string().min(1).max(500).optional().describe('Regex over title and content, case-insensitive'),
    confirm: confirmField,
    vault_id: vaultIdField,
  }),
  output: z.object({ success: bool, message: str, results: z.array(deletedOutput), summary: z.object({ total: num, successful: num, failed: num }) }),
  annotations: { title: 'Bulk delete notes', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  async handler(args, ctx) {
    if (args.type === undefined && args.tags === undefined && args.pattern === undefined) {
      throw new ValidationError('Give at least one criterion (type, tags or pattern): bulk_delete_notes never deletes a whole vault.', { field: 'type' });
    }
    const matching = await findMatching(ctx, args);
    const config = await vaultConfig(ctx);
    const ids = matching.map((n) => n.id);
    if (ids.length > config.deletion.max_bulk_delete) {
      throw new ValidationError(
        `${ids.length} notes match, more than max_bulk_delete (${config.deletion.max_bulk_delete}); narrow the criteria or raise the limit in .flint-note/config.yml.`,
        { field: 'type', matched: ids.length, max_bulk_delete: config.deletion.max_bulk_delete, would_delete: ids },
      );
    }
    if (ids.length > 0 && config.deletion.require_confirmation && !args.confirm) {
      throw new ValidationError(`Bulk deletion of ${ids.length} note(s) requires confirmation. Set confirm=true to proceed.`, { field: 'confirm', would_delete: ids });
    }
    const results = [];
    for (const id of ids) {
      try {
        results.push(await deleteNoteSafely(ctx, id, { confirm: args.confirm }));
      } catch (err) {
        const error = toNotekernelError(err);
        results.push({ id, deleted: false, timestamp: new Date().toISOString(), code: error.code, warnings: [`Failed to delete: ${error.message}`] });
      }
    }
    const successful = results.filter((r) => r.deleted).length;
    return {
      success: true,
      message: `Bulk delete completed: ${successful} deleted, ${results.length - successful} failed`,
      results,
      summary: { total: results.length, successful, failed: results.length - successful },
    };
  },
});

async function findMatching(ctx: ToolContext, criteria: { type?: string; tags?: string[]; pattern?: string }): Promise<NoteSummary[]> {
  let regex: RegExp | undefined;
  if (criteria.pattern !== undefined) {
    try {
      regex = new RegExp(criteria.pattern, 'i');
    } catch (err) {
      throw new ValidationError(`pattern is not a valid regular expression: ${(err as Error).message}`, { field: 'pattern', value: criteria.pattern });
    }
  }
  const candidates = (await ctx.notes.list(criteria.type !== undefined ? { type: criteria.type, orderBy: 'title', direction: 'asc' } : { orderBy: 'title', direction: 'asc' })).filter(
    (n) => !criteria.tags || criteria.tags.every((t) => n.tags.includes(t)),
  );
  if (!regex) return candidates;
  const out: NoteSummary[] = [];
  for (const summary of candidates) {
    if (regex.test(summary.title)) out.push(summary);
    else if (regex.test((await ctx.notes.get(summary.id))?.content ?? '')) out.push(summary);
  }
  return out;
}
