/** Runs a step by id and renders its report for people (the CLI) — the tool returns it as JSON. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { NotFoundError, ValidationError } from '../../kernel/errors.js';
import type { Logger } from '../../kernel/logger.js';
import { noProgress, type ProgressReporter } from '../../kernel/progress.js';
import { findStep, MIGRATION_STEPS, type MigrationReport } from './steps/index.js';
import type { FileChange } from './steps/types.js';

export async function runStep(
  stepId: string,
  rootDir: string,
  options: { dryRun: boolean; logger: Logger; progress?: ProgressReporter; plan?: FileChange[] },
): Promise<MigrationReport> {
  const step = findStep(stepId);
  if (!step) {
    throw new NotFoundError(
      `Unknown migration step "${stepId}". Steps: ${MIGRATION_STEPS.map((s) => s.id).join(', ')}.`,
      { step: stepId },
    );
  }
  const root = path.resolve(rootDir);
  const stats = await fs.stat(root).catch(() => undefined);
  if (!stats?.isDirectory())
    throw new ValidationError(`--root-dir ${root} is not a folder.`, { field: 'root_dir', value: root });
  return step.run({
    rootDir: await fs.realpath(root),
    dryRun: options.dryRun,
    progress: options.progress ?? noProgress,
    logger: options.logger,
    ...(options.plan ? { plan: options.plan } : {}),
  });
}

export function summaryLines(report: MigrationReport): string[] {
  const verb = report.dryRun ? 'would migrate' : 'migrated';
  const lines = report.migrated.map(
    (m) =>
      `${verb}: ${m.from}${m.to !== m.from ? ` → ${m.to}` : ''}${m.warnings ? `\n  note: ${m.warnings.join('\n  note: ')}` : ''}`,
  );
  for (const e of report.errors) lines.push(`error: ${e.path}: ${e.reason}`);
  lines.push(
    `${report.step}${report.dryRun ? ' (dry run, nothing written)' : ''}: ${report.migrated.length} ${verb}, ${report.skipped.length} skipped (already v2), ${report.errors.length} errors`,
  );
  return lines;
}
