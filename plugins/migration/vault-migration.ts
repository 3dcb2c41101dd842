/**
 * A migration of the open vault's own folder, shared by the `migrate` tool and `notekernel
 * migrate` on the vault: on a store with `files` it is one journalled operation (decision 025):
 * every file's change planned durably, applied, listed, undoable; a dry run returns that plan.
 * A store without `files` runs the step on the folder directly.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { toNotekernelError } from '../../kernel/errors.js';
import type { Logger } from '../../kernel/logger.js';
import type { NoteService } from '../../kernel/notes.js';
import type { ProgressReporter } from '../../kernel/progress.js';
import { contentHash } from '../../toolkit/hash.js';
import { runStep } from './run.js';
import type { MigrationReport } from './steps/index.js';
import type { FileChange } from './steps/types.js';
import { applyPlan, previewPlan, type PlanItem, type PlanPreview } from '../../toolkit/plans/plan-runner.js';

export type VaultMigrationReport = MigrationReport & { operation_id?: string; plan?: PlanPreview };

export async function migrateVault(
  notes: NoteService,
  folder: string,
  stepId: string,
  options: { dryRun: boolean; logger: Logger; progress: ProgressReporter },
): Promise<VaultMigrationReport> {
  const { dryRun, logger, progress } = options;
  const files = notes.store.files;
  if (!files) {
    const report = await runStep(stepId, folder, { dryRun, logger, progress });
    if (!dryRun) await notes.store.refresh?.(progress);
    return report;
  }
  const changes: FileChange[] = [];
  const report = await runStep(stepId, folder, { dryRun: true, logger, progress, plan: changes });
  // The step's paths are relative to the folder it ran on; the journal's to the store's root.
  const prefix = path
    .relative(await fs.realpath(files.root), report.rootDir)
    .split(path.sep)
    .filter(Boolean)
    .join('/');
  const vaultPath = (rel: string) => (prefix ? `${prefix}/${rel}` : rel);
  const items: PlanItem[] = changes.map((c) => ({
    kind: 'text',
    file: true,
    path: vaultPath(c.path),
    text: c.text,
    expectedHash: c.before === null ? null : contentHash(c.before),
    // A v1 file goes only once its v2 file is in place: never an entry lost.
    ...(c.replacedBy
      ? { replacedBy: { path: vaultPath(c.replacedBy.path), hash: contentHash(c.replacedBy.text) } }
      : {}),
  }));
  if (dryRun) return { ...report, plan: await previewPlan(notes, 'migrate', items) };
  progress.start('migrating entries', items.length);
  const applied = await applyPlan(notes, 'migrate', items);
  progress.stop();
  const failed = new Map<string, string>();
  applied.results.forEach((r, k) => {
    if (r.status === 'rejected') failed.set((changes[k] as FileChange).path, toNotekernelError(r.reason).message);
  });
  // Keeps file-time fallbacks (a root without git) close to v1's updatedAt.
  for (const c of changes)
    if (c.updatedAt && c.text !== null && !failed.has(c.path))
      await fs.utimes(path.join(report.rootDir, ...c.path.split('/')), new Date(), c.updatedAt).catch(() => undefined);
  await notes.store.refresh?.(progress);
  return {
    ...withFailures(report, failed),
    dryRun: false,
    ...(applied.entryId ? { operation_id: applied.entryId } : {}),
  };
}

/** A file whose new text or removal failed (changed meanwhile) is an error, not a migrated one. */
function withFailures(report: MigrationReport, failed: Map<string, string>): MigrationReport {
  if (!failed.size) return report;
  const broke = (m: MigrationReport['migrated'][number]) => failed.get(m.to) ?? failed.get(m.from);
  return {
    ...report,
    migrated: report.migrated.filter((m) => broke(m) === undefined),
    errors: [
      ...report.errors,
      ...report.migrated.flatMap((m) => (broke(m) !== undefined ? [{ path: m.from, reason: broke(m) as string }] : [])),
    ],
  };
}
