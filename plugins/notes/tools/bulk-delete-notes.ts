import { z } from 'zod';
import { ValidationError, toNotekernelError } from '../../../kernel/errors.js';
import type { NoteSummary } from '../../../kernel/note.js';
import { defineTool, type ToolContext } from '../../../kernel/tool.js';
import { vaultConfig } from '../config.js';
import { backUp, checkDeletion, outcomeOf, type CheckedDeletion, type DeleteOutcome } from '../deletion.js';
import { bool, modesOutput, num, planPreviewOutput, str } from '../../../toolkit/tool-output.js';
import { deletedOutput } from '../render.js';
import { confirmField, nameString, planDryRunField, vaultIdField } from '../../../toolkit/tool-fields.js';
import { applyPlan, previewPlan } from '../../../toolkit/plans/plan-runner.js';

export const bulkDeleteNotesTool = defineTool({
  name: 'bulk_delete_notes',
  description:
    'Delete every note matching all criteria given (type, tags, pattern), at most max_bulk_delete; a refusal for want of confirm lists them.',
  input: z.object({
    type: nameString().min(1).optional().describe('Only notes of this type'),
    tags: z.array(z.string().min(1)).min(1).optional().describe('Only notes with all these tags'),
    pattern: z.string().min(1).max(500).optional().describe('Regex over title and content, case-insensitive'),
    confirm: confirmField,
    dry_run: planDryRunField(),
    vault_id: vaultIdField,
  }),
  output: modesOutput(
    {
      success: bool,
      message: str,
      results: z.array(deletedOutput),
      summary: z.object({ total: num, successful: num, failed: num }),
      operation_id: str,
    },
    planPreviewOutput,
    { failed: z.array(deletedOutput) },
  ),
  annotations: {
    title: 'Bulk delete notes',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: false,
  },
  async handler(args, ctx) {
    if (args.type === undefined && args.tags === undefined && args.pattern === undefined) {
      throw new ValidationError(
        'Give at least one criterion (type, tags or pattern): bulk_delete_notes never deletes a whole vault.',
        { field: 'type' },
      );
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
    if (ids.length > 0 && config.deletion.require_confirmation && !args.confirm && !args.dry_run) {
      throw new ValidationError(
        `Bulk deletion of ${ids.length} note(s) requires confirmation. Set confirm=true to proceed.`,
        { field: 'confirm', would_delete: ids },
      );
    }
    const results: Array<DeleteOutcome | Failed> = [];
    const checked: CheckedDeletion[] = [];
    for (const id of ids) {
      try {
        checked.push(await checkDeletion(ctx, id, { confirm: args.confirm || args.dry_run }));
      } catch (err) {
        results.push(failure(id, err));
      }
    }
    // Every deletion is one journalled operation: a crash deletes all or none, undo_operation brings them back.
    const items = checked.map((c) => ({ kind: 'delete' as const, id: c.note.id, expectedHash: c.note.contentHash }));
    if (args.dry_run)
      return {
        ...(await previewPlan(ctx.notes, 'bulk_delete_notes', items)),
        ...(results.length ? { failed: results } : {}),
      };
    const backups = await Promise.all(checked.map((c) => backUp(ctx, c)));
    ctx.progress.start('deleting notes', items.length);
    const applied = await applyPlan(ctx.notes, 'bulk_delete_notes', items);
    ctx.progress.stop();
    checked.forEach((c, k) => {
      const outcome = applied.results[k] as PromiseSettledResult<unknown>;
      results.push(outcome.status === 'fulfilled' ? outcomeOf(c, backups[k]) : failure(c.note.id, outcome.reason));
    });
    results.sort((a, b) => ids.indexOf(a.id) - ids.indexOf(b.id));
    const successful = results.filter((r) => r.deleted).length;
    return {
      success: true,
      message: `Bulk delete completed: ${successful} deleted, ${results.length - successful} failed`,
      results,
      summary: { total: results.length, successful, failed: results.length - successful },
      ...(applied.entryId ? { operation_id: applied.entryId } : {}),
    };
  },
});

interface Failed {
  id: string;
  deleted: false;
  timestamp: string;
  code: string;
  warnings: string[];
}

function failure(id: string, err: unknown): Failed {
  const error = toNotekernelError(err);
  return {
    id,
    deleted: false,
    timestamp: new Date().toISOString(),
    code: error.code,
    warnings: [`Failed to delete: ${error.message}`],
  };
}

async function findMatching(
  ctx: ToolContext,
  criteria: { type?: string; tags?: string[]; pattern?: string },
): Promise<NoteSummary[]> {
  let regex: RegExp | undefined;
  if (criteria.pattern !== undefined) {
    try {
      regex = new RegExp(criteria.pattern, 'i');
    } catch (err) {
      throw new ValidationError(`pattern is not a valid regular expression: ${(err as Error).message}`, {
        field: 'pattern',
        value: criteria.pattern,
      });
    }
  }
  const candidates = (
    await ctx.notes.list(
      criteria.type !== undefined
        ? { type: criteria.type, orderBy: 'title', direction: 'asc' }
        : { orderBy: 'title', direction: 'asc' },
    )
  ).filter((n) => !criteria.tags || criteria.tags.every((t) => n.tags.includes(t)));
  if (!regex) return candidates;
  const out: NoteSummary[] = [];
  for (const summary of candidates) {
    if (regex.test(summary.title)) out.push(summary);
    else if (regex.test((await ctx.notes.get(summary.id))?.content ?? '')) out.push(summary);
  }
  return out;
}
