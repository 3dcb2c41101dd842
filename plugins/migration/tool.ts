import { z } from 'zod';
import { defineTool } from '../../kernel/tool.js';
import { runStep } from './run.js';
import { MIGRATION_STEPS } from './steps/index.js';
import { requireVaultFolder } from '../../kernel/vault-info.js';
import { bool, str, strs } from '../../kernel/tool-output.js';

/**
 * The same migration as `notekernel migrate`, on the open vault's own folder only: an agent
 * never names a path outside the vault.
 */
export const migrateTool = defineTool({
  name: 'migrate',
  description: `Convert the notes of this vault with a migration step (${MIGRATION_STEPS.map((s) => `${s.id}: ${s.description}`).join('; ')}). Idempotent; try dry_run first.`,
  input: z.object({
    step: z.enum(MIGRATION_STEPS.map((s) => s.id) as [string, ...string[]]).describe('migration step id'),
    dry_run: z.boolean().optional().describe('report what would change and write nothing (default false)'),
  }),
  output: z.object({ step: str, rootDir: str, dryRun: bool, migrated: z.array(z.object({ from: str, to: str, warnings: strs.optional() })), skipped: z.array(z.object({ path: str, reason: str })), errors: z.array(z.object({ path: str, reason: str })) }),
  annotations: { title: 'Migrate notes', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async handler(args, ctx) {
    const dryRun = args.dry_run ?? false;
    const report = await runStep(args.step, requireVaultFolder(ctx.vault, 'migrate'), { dryRun, logger: ctx.logger, progress: ctx.progress });
    if (!dryRun) await ctx.notes.store.refresh(ctx.progress);
    return report;
  },
});
