import { z } from 'zod';
import { defineTool } from '../../../kernel/tool.js';
import { renameTag } from '../rename.js';
import type { TagIndex } from '../tag-index.js';
import { bool, num, planPreviewOutput, str, strs } from '../../../toolkit/tool-output.js';
import { nameString, previewFirstField, vaultIdField } from '../../../toolkit/tool-fields.js';

export function renameTagTool(index: TagIndex) {
  return defineTool({
    name: 'rename_tag',
    description: 'Rename a tag in every note: frontmatter and inline #tags, nested ones too (#a/b → #x/b).',
    input: z.object({
      from: nameString().min(1).describe('With or without #'),
      to: nameString().min(1).describe('New name; an existing tag merges'),
      dry_run: previewFirstField,
      include_nested: z.boolean().default(true).describe('Also rename tags nested below it'),
      vault_id: vaultIdField,
    }),
    output: z.object({
      success: bool,
      dry_run: bool,
      from: str,
      to: str,
      notes: z.array(
        z.object({
          id: str,
          title: str,
          frontmatter: z.object({ before: strs, after: strs }).optional(),
          inline: z.array(z.object({ line: num, before: str, after: str })),
        }),
      ),
      notes_affected: num,
      occurrences: num,
      notes_updated: num,
      not_rewritten: z.array(z.object({ id: str, reason: str })),
      hint: str.optional(),
      plan: z.object(planPreviewOutput).optional(),
      operation_id: str.optional(),
    }),
    annotations: {
      title: 'Rename tag',
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: false,
    },
    async handler(args, ctx) {
      const report = await renameTag(
        index,
        ctx.notes,
        { from: args.from, to: args.to, dryRun: args.dry_run, nested: args.include_nested },
        ctx.progress,
      );
      const hint =
        report.dry_run && report.notes_affected
          ? { hint: 'Run again with dry_run: false to apply these changes.' }
          : {};
      return { success: true, ...report, ...hint };
    },
  });
}
