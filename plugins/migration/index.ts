/**
 * migration: converts folders of notes between formats, one named step at a time (see
 * steps/). Served as the `notekernel migrate <step>` CLI command and the `migrate` tool.
 */
import { definePlugin } from '../../kernel/plugin.js';
import { migrateCommand } from './cli.js';
import { migrateTool } from './tool.js';
import { requireVaultFolder } from '../../toolkit/vault-folder.js';

export { MIGRATION_STEPS } from './steps/index.js';
export type { MigrationReport, MigrationStep } from './steps/index.js';

export const migrationPlugin = definePlugin({
  id: 'migration',
  description:
    'Format migrations as steps (agent-memory-v2, ...): a CLI command and a tool, idempotent, with a dry run.',
  commands: [
    {
      name: 'migrate',
      summary: 'convert a folder of notes to the current format (agent-memory-v2)',
      arguments: [{ name: '<step>', description: 'the migration step: agent-memory-v2' }],
      options: [
        { flags: '--root-dir <path>', description: 'the folder to convert (default: the vault)' },
        { flags: '--dry-run', description: 'report what would change, write nothing' },
        { flags: '--json', description: 'print the report as JSON' },
      ],
      vaultOption: '--root-dir',
    },
  ],
  register(ctx) {
    return {
      tools: [migrateTool],
      cli: [migrateCommand(requireVaultFolder(ctx.vault, 'migration'), ctx.notes, ctx.logger)],
    };
  },
});
