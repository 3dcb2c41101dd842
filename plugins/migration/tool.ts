import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { defineTool } from '../../kernel/tool.js';
import { runStep } from './run.js';
import { MIGRATION_STEPS, type MigrationReport } from './steps/index.js';
import type { FileChange } from './steps/types.js';
import { requireVaultFolder } from '../../kernel/vault-info.js';
import { bool, planPreviewOutput, str, strs } from '../../kernel/tool-output.js';
import type { PlanItem } from '../../kernel/notes.js';
import { contentHash } from '../../kernel/util/hash.js';
import { toNotekernelError } from '../../kernel/errors.js';

/**
 * The same migration as `notekernel migrate`, on the open vault's own folder only: an agent
 * never names a path outside the vault. On a store with `files` it is one journalled operation
 * (decision 025): every file's change planned durably, applied, listed, undoable; a dry run
 * returns that plan.
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
  annotations: { title: 'Migrate notes', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async handler(args, ctx) {
    const dryRun = args.dry_run ?? false;
    const folder = requireVaultFolder(ctx.vault, 'migrate');
    const files = ctx.notes.store.files;
    if (!files) {
      const report = await runStep(args.step, folder, { dryRun, logger: ctx.logger, progress: ctx.progress });
      if (!dryRun) await ctx.notes.store.refresh(ctx.progress);
      return report;
    }
    const changes: FileChange[] = [];
    const report = await runStep(args.step, folder, { dryRun: true, logger: ctx.logger, progress: ctx.progress, plan: changes });
    // The step's paths are relative to the folder it ran on; the journal's to the store's root.
    const prefix = path.relative(await fs.realpath(files.root), report.rootDir).split(path.sep).filter(Boolean).join('/');
    const vaultPath = (rel: string) => (prefix ? `${prefix}/${rel}` : rel);
    const items: PlanItem[] = changes.map((c) => ({
      kind: 'text',
      file: true,
      path: vaultPath(c.path),
      text: c.text,
      expectedHash: c.before === null ? null : contentHash(c.before),
      // A v1 file goes only once its v2 file is in place: never an entry lost.
      ...(c.replacedBy ? { replacedBy: { path: vaultPath(c.replacedBy.path), hash: contentHash(c.replacedBy.text) } } : {}),
    }));
    if (dryRun) return { ...report, plan: await ctx.notes.previewPlan('migrate', items) };
    ctx.progress.start('migrating entries', items.length);
    const applied = await ctx.notes.applyPlan('migrate', items);
    ctx.progress.stop();
    const failed = new Map<string, string>();
    applied.results.forEach((r, k) => {
      if (r.status === 'rejected') failed.set((changes[k] as FileChange).path, toNotekernelError(r.reason).message);
    });
    // Keeps file-time fallbacks (a root without git) close to v1's updatedAt.
    for (const c of changes) if (c.updatedAt && c.text !== null && !failed.has(c.path)) await fs.utimes(path.join(report.rootDir, ...c.path.split('/')), new Date(), c.updatedAt).catch(() => undefined);
    await ctx.notes.store.refresh(ctx.progress);
    return { ...withFailures(report, failed), dryRun: false, ...(applied.entryId ? { operation_id: applied.entryId } : {}) };
  },
});

/** A file whose new text or removal failed (changed meanwhile) is an error, not a migrated one. */
function withFailures(report: MigrationReport, failed: Map<string, string>): MigrationReport {
  if (!failed.size) return report;
  const broke = (m: MigrationReport['migrated'][number]) => failed.get(m.to) ?? failed.get(m.from);
  return {
    ...report,
    migrated: report.migrated.filter((m) => broke(m) === undefined),
    errors: [...report.errors, ...report.migrated.flatMap((m) => (broke(m) !== undefined ? [{ path: m.from, reason: broke(m) as string }] : []))],
  };
}
