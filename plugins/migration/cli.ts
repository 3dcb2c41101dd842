/**
 * `notekernel migrate <step> --root-dir PATH [--dry-run] [--json]`, contributed through the
 * plugin's `cli`. Progress on stderr, the summary (or the JSON report) on stdout; exit code 1
 * when some file could not be migrated (it is untouched: fix it and run again), 2 on bad usage.
 */
import path from 'node:path';
import type { NoteStore } from '../../kernel/backend.js';
import type { Logger } from '../../kernel/logger.js';
import type { CliCommandDefinition } from '../../kernel/plugin.js';
import { runStep, summaryLines } from './run.js';
import { MIGRATION_STEPS } from './steps/index.js';

export function migrateCommand(vaultRoot: string, store: NoteStore, logger: Logger): CliCommandDefinition {
  return {
    name: 'migrate',
    summary: `convert a folder of notes: ${MIGRATION_STEPS.map((s) => s.id).join(', ')}`,
    usage: 'migrate <step> [--root-dir PATH] [--dry-run] [--json]',
    async run(argv, io) {
      const [stepId, ...rest] = argv;
      const rootAt = rest.indexOf('--root-dir');
      const rootDir = rootAt === -1 ? vaultRoot : rest[rootAt + 1];
      const unknown = rest.filter((a, i) => a.startsWith('--') && !['--root-dir', '--dry-run', '--json'].includes(a) && rest[i - 1] !== '--root-dir');
      if (!stepId || stepId.startsWith('--') || rootDir === undefined || unknown.length) {
        io.err(`usage: notekernel ${this.usage}\nsteps:\n${MIGRATION_STEPS.map((s) => `  ${s.id}  ${s.description}`).join('\n')}\n`);
        return 2;
      }
      const dryRun = rest.includes('--dry-run');
      const report = await runStep(stepId, rootDir, { dryRun, logger, progress: io.progress });
      // The open vault is the migrated folder: let the store see the new files now.
      if (!dryRun && path.resolve(rootDir) === vaultRoot) await store.refresh();
      if (rest.includes('--json')) io.out(`${JSON.stringify(report, null, 2)}\n`);
      else io.out(`${summaryLines(report).join('\n')}\n`);
      return report.errors.length ? 1 : 0;
    },
  };
}
