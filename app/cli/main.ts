/**
 * The `notekernel` command. Each subcommand is a thin adapter: open the vault, call the one
 * invoke() path or serve it, print its result to stdout (readable text, or JSON with --json),
 * and leave logs, progress and errors on stderr.
 * Exit codes: 0 success, 1 a tool failed, 2 bad usage, config or vault.
 */
import path from 'node:path';
import { Command, CommanderError } from 'commander';
import { type NotekernelError, toNotekernelError, ValidationError } from '../../kernel/errors.js';
import { VERSION } from '../version.js';
import { SEARCH_INDEX } from '../../kernel/tokens.js';
import { refreshStore } from '../../kernel/note-store.js';
import { openFromOptions, withCommonOptions, type CommonOptions } from './open.js';
import { ExitCode } from './exit-code.js';
import { makeVaultFolder } from './vault-folder.js';
import { addDeleteCommands } from './commands/delete-commands.js';
import { addPluginCommands } from './commands/plugin-command.js';
import type { Catalogue } from '../../profiles/catalogue-types.js';
import { runTool } from './commands/run-tool.js';
import { addVaultCommands } from './commands/vault-commands.js';
import { addServeCommand } from './commands/serve-command.js';
import { addDoctorCommand } from './commands/doctor-command.js';
import { addMigrateDbCommand } from './commands/migrate-db.js';
import { addImportExportCommands } from './commands/import-export.js';
import { addToolsCommand } from './commands/tools-command.js';
import { progressBar } from './progress-bar.js';
import { emit, printError, wantsJson, withJsonOption, type OutputOptions } from './output/print.js';
import { renderIndex, renderInit } from './output/reports.js';

const USAGE_CODES = new Set(['config_invalid', 'plugin_dependency', 'capability_missing', 'backend_unavailable']);

export async function main(argv: string[]): Promise<number> {
  // `serve` (what MCP clients spawn) builds its own command only: its help, errors and
  // suggestions are the same, and its start skips building the ~20 others (~1.5 % of the
  // instructions to a served vault's first answer, decision 011).
  const program = buildProgram(argv[0] === 'serve');
  try {
    const first = argv[0];
    // Plugin commands need the catalogue (every plugin module): loaded only when the command is
    // not a built-in one, so `serve`, `call` and `--version` start without it while help lists them all.
    const builtin = first === '-v' || first === '--version' || program.commands.some((c) => c.name() === first);
    if (!first || !builtin) {
      const { builtinCatalogue } = (await import('../../profiles/catalogue.js')) as { builtinCatalogue: Catalogue };
      addPluginCommands(program, builtinCatalogue);
    }
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (err) {
    if (err instanceof ExitCode) return err.code;
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 2;
    const error = toNotekernelError(err);
    const hint =
      error.code === 'not_found' && /^Vault path/.test(error.message)
        ? ' (create it with: notekernel init <dir>, or run notekernel serve, which creates it)'
        : '';
    printError(wantsJson(argv), error, `${error.message}${hint}`);
    if (error.code === 'internal' && err instanceof Error && err.stack) process.stderr.write(`${err.stack}\n`);
    return USAGE_CODES.has(error.code) || isVaultMissing(error) ? 2 : 1;
  }
}

function isVaultMissing(error: NotekernelError): boolean {
  return error.code === 'not_found' && /^(Vault path|No vault given)/.test(error.message);
}

function buildProgram(serveOnly = false): Command {
  const program = new Command('notekernel')
    .description('A knowledge base your agents own: notes as plain files, served over MCP.')
    .version(VERSION, '-v, --version', 'print the version')
    .exitOverride()
    .showSuggestionAfterError(true)
    .showHelpAfterError('(notekernel --help lists every command and option)')
    .configureOutput({ writeErr: (text) => process.stderr.write(text) });

  addServeCommand(program);
  if (serveOnly) return program;

  withJsonOption(
    withCommonOptions(program.command('call').description("call a tool: notekernel call <tool> '<json arguments>'")),
  )
    .argument('<tool>', 'tool name')
    .argument('[json]', 'arguments as a JSON object', '{}')
    .action(async (tool: string, json: string, options: CommonOptions & OutputOptions) => {
      let args: unknown;
      try {
        args = JSON.parse(json);
      } catch (err) {
        printError(
          options.json === true,
          new ValidationError(`arguments are not valid JSON: ${(err as Error).message}`, {}),
        );
        throw new ExitCode(2);
      }
      await runTool(options, tool, args);
    });

  addToolsCommand(program);

  withJsonOption(
    withCommonOptions(program.command('init').description("create a vault with the profile's default content")),
  )
    .argument('[dir]', 'vault folder (created if missing)', '.')
    .option('--id <id>', 'also register the vault under this id')
    .option('--name <name>', 'display name when registering')
    .action(async (dir: string, options: CommonOptions & OutputOptions & { id?: string; name?: string }) => {
      const root = path.resolve(options.vault ?? dir);
      await makeVaultFolder(root);
      const { kernel, vault } = await openFromOptions(
        { ...options, vault: root },
        { defaultLogLevel: 'warn', progress: progressBar() },
      );
      try {
        if (options.id && !(await kernel.registry.get(options.id))) {
          await kernel.registry.add({ id: options.id, name: options.name ?? options.id, path: root });
        }
        await vault.init();
        const types = await vault.notes.store.listTypes?.();
        emit(options, { vault: root, profile: vault.info.profile, types: types ?? [] }, renderInit);
      } finally {
        await kernel.close();
      }
    });

  withJsonOption(
    withCommonOptions(
      program
        .command('index')
        .description('bring the index up to date with the files, and list what is skipped (progress on stderr)'),
    ),
  ).action(async (options: CommonOptions & OutputOptions) => {
    const progress = progressBar();
    const { kernel, vault } = await openFromOptions(options, { defaultLogLevel: 'warn', progress });
    try {
      const report = await refreshStore(vault.notes.store, progress);
      // A search index that embeds behind its answers (hybrid-search) finishes here, with its own bar.
      const background = await vault.tryResolve(SEARCH_INDEX)?.finishBackground?.(progress);
      const full = background ? { ...report, vectors: { embedded: background.done, ms: background.ms } } : report;
      emit(options, full, (r, style) => renderIndex({ ...r, vault: vault.info.root ?? vault.info.id }, style));
    } finally {
      await kernel.close();
    }
  });

  addDoctorCommand(program);
  addMigrateDbCommand(program);
  addImportExportCommands(program);
  addVaultCommands(program);
  addDeleteCommands(program);
  return program;
}
