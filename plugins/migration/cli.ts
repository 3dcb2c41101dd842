/**
 * `notekernel migrate <step> --root-dir PATH [--dry-run] [--json]`, contributed through the
 * plugin's `cli` (the CLI parses the arguments and options the plugin declares). Progress on stderr, the summary (or the JSON report) on stdout; exit code 1
 * when some file could not be migrated (it is untouched: fix it and run again), 2 on bad usage.
 * The open vault's own folder is migrated as the tool does it, one journalled operation
 * (`list_operations` / `undo_operation` see it); another folder is converted in place.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from '../../kernel/logger.js';
import type { NoteService } from '../../kernel/notes.js';
import type { CliCommandDefinition } from '../../kernel/plugin.js';
import { runStep, summaryLines } from './run.js';
import { MIGRATION_STEPS } from './steps/index.js';
import { migrateVault } from './vault-migration.js';

export function migrateCommand(vaultRoot: string, notes: NoteService, logger: Logger): CliCommandDefinition {
  return {
    name: 'migrate',
    summary: `convert a folder of notes: ${MIGRATION_STEPS.map((s) => s.id).join(', ')}`,
    async run({ args, options }, io) {
      const [stepId] = args;
      const rootDir = typeof options.rootDir === 'string' ? options.rootDir : vaultRoot;
      if (!stepId) {
        io.err(`name a step:\n${MIGRATION_STEPS.map((s) => `  ${s.id}  ${s.description}`).join('\n')}\n`);
        return 2;
      }
      const dryRun = options.dryRun === true;
      const onVault =
        (await fs.realpath(path.resolve(rootDir)).catch(() => path.resolve(rootDir))) ===
        (await fs.realpath(vaultRoot).catch(() => vaultRoot));
      const report = onVault
        ? await migrateVault(notes, vaultRoot, stepId, { dryRun, logger, progress: io.progress })
        : await runStep(stepId, rootDir, { dryRun, logger, progress: io.progress });
      if (options.json === true) io.out(`${JSON.stringify(report, null, 2)}\n`);
      else io.out(`${summaryLines(report).join('\n')}\n`);
      return report.errors.length ? 1 : 0;
    },
  };
}
