import { z } from 'zod';
import { defineTool } from '../../kernel/tool.js';
import { MIGRATION_STEPS } from './steps/index.js';
import { requireVaultFolder } from '../../toolkit/vault-folder.js';
import { bool, planPreviewOutput, str, strs } from '../../toolkit/tool-output.js';
import { migrateVault } from './vault-migration.js';

/**
 * The same migration as `notekernel migrate`, on the open vault's own folder only: an agent
 * never names a path outside the vault. Journalled on a store with `files` (vault-migration.ts).
 */
export const migrateTool = defineTool({
  name: 'migrate',
  description: `Convert the notes of this vault with a migration step (${MIGRATION_STEPS.map((s) => `${s.id}: ${s.description}`).join('; ')}). Idempotent; try dry_run first (returns the plan, a diff per file). One journalled operation: undo_operation reverts it.`,
  input: z.object({
    step: z.enum(MIGRATION_STEPS.map((s) => s.id) as [string, ...string[]]).describe('migration step id'),
    dry_run: z.boolean().optional().describe('report what would change and write nothing (default false)'),
  }),
  output: z.object({
    step: str,
    rootDir: str,
    dryRun: bool,
    migrated: z.array(z.object({ from: str, to: str, warnings: strs.optional() })),
    skipped: z.array(z.object({ path: str, reason: str })),
    errors: z.array(z.object({ path: str, reason: str })),
    operation_id: str.optional(),
    plan: z.object(planPreviewOutput).optional(),
  }),
  annotations: {
    title: 'Migrate notes',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  handler: (args, ctx) =>
    migrateVault(ctx.notes, requireVaultFolder(ctx.vault, 'migrate'), args.step, {
      dryRun: args.dry_run ?? false,
      logger: ctx.logger,
      progress: ctx.progress,
    }),
});
