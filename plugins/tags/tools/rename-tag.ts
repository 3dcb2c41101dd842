import { z } from 'zod';
import { defineTool } from '../../../kernel/tool.js';
import { vaultIdField } from '../../../kernel/vault-id.js';
import { renameTag } from '../rename.js';
import type { TagIndex } from '../tag-index.js';
import { bool, num, planPreviewOutput, str, strs } from '../../../kernel/tool-output.js';

export function renameTagTool(index: TagIndex) {
  return defineTool({
    name: 'rename_tag',
    description:
      'Rename a tag in every note: frontmatter tags and inline #tags, nested tags too (#a/b → #x/b). Dry run by default: lists each change; pass dry_run: false to apply.',
    input: z.object({
      from: z.string().min(1).describe('The tag to rename, with or without #'),
      to: z.string().min(1).describe('Its new name (an existing tag merges the two)'),
      dry_run: z.boolean().default(true).describe('true (default): list the changes only; false: write them'),
      include_nested: z.boolean().default(true).describe('Also rename nested tags below it (default true)'),
      vault_id: vaultIdField,
    }),
    output: z.object({ success: bool, dry_run: bool, from: str, to: str, notes: z.array(z.object({ id: str, title: str, frontmatter: z.object({ before: strs, after: strs }).optional(), inline: z.array(z.object({ line: num, before: str, after: str })) })), notes_affected: num, occurrences: num, notes_updated: num, not_rewritten: z.array(z.object({ id: str, reason: str })), hint: str.optional(), plan: z.object(planPreviewOutput).optional(), operation_id: str.optional() }),
    annotations: { title: 'Rename tag', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    async handler(args, ctx) {
      const report = await renameTag(index, ctx.notes, { from: args.from, to: args.to, dryRun: args.dry_run, nested: args.include_nested }, ctx.progress);
      const hint = report.dry_run && report.notes_affected ? { hint: 'Run again with dry_run: false to apply these changes.' } : {};
      return { success: true, ...report, ...hint };
    },
  });
}
