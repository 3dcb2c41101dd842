import { z } from 'zod';
import { defineTool } from '../../../kernel/tool.js';
import type { LinksRuntime } from '../runtime.js';
import { bool, nullableStr, num, str } from '../../../toolkit/tool-output.js';
import { pathString, previewFirstField, vaultIdField } from '../../../toolkit/tool-fields.js';

export function linksRepairTool(runtime: LinksRuntime) {
  return defineTool({
    name: 'links_repair',
    description:
      'Rewrite links still using old names of notes renamed or moved outside the server (mv, git, a file manager).',
    input: z.object({
      dry_run: previewFirstField,
      identifier: pathString().min(1).optional().describe('Only links to this note (id, title or filename)'),
      refresh: z.boolean().default(true).describe('Re-read files changed on disk first'),
      vault_id: vaultIdField,
    }),
    output: z.object({
      success: bool,
      dry_run: bool,
      moves: z.array(
        z.object({
          from_id: str,
          to_id: str,
          from_name: str,
          to_name: str,
          how: str,
          detected_at: str,
          repaired_at: nullableStr,
        }),
      ),
      edits: z.array(z.object({ note_id: str, line_number: num, before: str, after: str })),
      links_updated: num,
      notes_updated: num,
      not_rewritten: z.array(z.object({ id: str, reason: str })),
      operation_id: str.optional(),
      hint: str.optional(),
    }),
    annotations: {
      title: 'Repair links',
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: false,
    },
    async handler(args, ctx) {
      if (args.refresh) await ctx.notes.store.refresh?.(ctx.progress);
      const noteId = args.identifier === undefined ? undefined : await runtime.noteId(args.identifier);
      const report = await runtime.repair({
        dryRun: args.dry_run,
        progress: ctx.progress,
        ...(noteId !== undefined ? { noteId } : {}),
      });
      const pending = report.dry_run && report.edits.length > 0;
      return {
        success: true,
        ...report,
        ...(pending ? { hint: 'Run again with dry_run: false to apply these edits.' } : {}),
      };
    },
  });
}
