/**
 * `notekernel import <folder> --to <config>` and `notekernel export --from <config> <folder>`:
 * markdown in and out of a vault kept in PostgreSQL (issue 30 item 4, decision 050). The config is
 * the one a served vault uses (its storage options name the database and the vault); `--url` with
 * `--db-vault` names them without a file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Command } from 'commander';
import { ValidationError } from '../../../kernel/errors.js';
import { createLogger } from '../../logging/logger.js';
import type { PostgresOptions } from '../../../backends/postgres/index.js';
import { emit, withJsonOption, type OutputOptions } from '../output/print.js';
import { progressBar } from '../progress-bar.js';
import { postgresTarget } from './postgres-target.js';
import type { ImportReport } from '../../vault-copy/import-vault.js';

interface TargetOptions extends OutputOptions {
  url?: string;
  schema?: string;
  dbVault?: string;
}

async function databaseVault(config: string | undefined, options: TargetOptions): Promise<PostgresOptions> {
  const target = await postgresTarget({
    ...(options.url ? { url: options.url } : {}),
    ...(options.schema ? { schema: options.schema } : {}),
    ...(config ? { config } : {}),
  });
  if (!target)
    throw new ValidationError(
      'The config does not keep its notes in postgres: name a config with storage.backend: postgres, or --url.',
      {
        field: 'config',
      },
    );
  return options.dbVault ? { ...target.options, vault: options.dbVault } : target.options;
}

function folderOf(folder: string, mustExist: boolean): string {
  const resolved = path.resolve(folder);
  if (mustExist && !fs.statSync(resolved, { throwIfNoEntry: false })?.isDirectory())
    throw new ValidationError(`${resolved} is not a folder: name the markdown vault to import.`, { field: 'folder' });
  return resolved;
}

function targetOptions(command: Command): Command {
  return withJsonOption(
    command
      .option('--url <url>', 'the database, instead of a config file')
      .option('--schema <name>', "the schema (default: the config's, else notekernel)")
      .option('--db-vault <name>', "the vault inside the database (default: the config's, else default)"),
  );
}

function renderImport(r: ImportReport & { database: string; vault: string }): string {
  const lines = [
    `${r.folder} → ${r.database} vault ${r.vault}: ${r.notes} notes in ${r.seconds.toFixed(1)} s (${r.notesPerSecond}/s)`,
    `  created ${r.created}, replaced ${r.replaced}, unchanged ${r.unchanged}`,
  ];
  const list = <T>(title: string, count: number, items: T[], line: (item: T) => string) => {
    if (!count) return;
    lines.push(`  ${title}: ${count}`);
    for (const item of items.slice(0, 20)) lines.push(`    ${line(item)}`);
    if (count > 20) lines.push(`    … ${count - 20} more (--json lists up to 1,000)`);
  };
  list('in the database with other text (left; --overwrite replaces)', r.differs.count, r.differs.ids, (id) => id);
  list('normalised', r.normalised.count, r.normalised.notes, (n) => `${n.from}: ${n.reasons.join('; ')}`);
  list('refused', r.refused.count, r.refused.notes, (n) => `${n.from}: ${n.reason}`);
  list('skipped', r.skipped.count, r.skipped.files, (f) => `${f.path}: ${f.reason}`);
  return lines.join('\n');
}

export function addImportExportCommands(program: Command): void {
  targetOptions(
    program
      .command('import <folder>')
      .description('load a markdown vault (flint layout) into a vault kept in postgres')
      .option('--to <config>', 'config file whose storage is postgres (default: the one found from here)')
      .option('--overwrite', 'replace notes whose text in the database differs from the file')
      .option('--batch <n>', 'notes per transaction', (v) => Number.parseInt(v, 10), 250)
      .option('--parallel <n>', 'transactions at once (each a connection)', (v) => Number.parseInt(v, 10), 4),
  ).action(
    async (
      folder: string,
      options: TargetOptions & { to?: string; overwrite?: boolean; batch: number; parallel: number },
    ) => {
      const source = folderOf(folder, true);
      for (const [name, value] of [
        ['--batch', options.batch],
        ['--parallel', options.parallel],
      ] as const)
        if (!Number.isInteger(value) || value < 1)
          throw new ValidationError(`${name} takes a whole number of at least 1.`, { field: name });
      const target = await databaseVault(options.to, options);
      const { PgImportWriter } = await import('../../vault-copy/pg-writer.js');
      const { importFolder } = await import('../../vault-copy/import-vault.js');
      const writer = await PgImportWriter.open(target, createLogger({ level: 'warn' }), options.parallel);
      try {
        const report = await importFolder(source, writer, {
          defaultType: target.defaultType ?? 'general',
          batchSize: options.batch,
          parallel: options.parallel,
          overwrite: options.overwrite ?? false,
          progress: progressBar(),
        });
        emit(options, { database: writer.database, vault: target.vault, ...report }, renderImport);
      } finally {
        await writer.close();
      }
    },
  );

  targetOptions(
    program
      .command('export <folder>')
      .description('write every note of a vault kept in postgres as its markdown file, at its id')
      .option('--from <config>', 'config file whose storage is postgres (default: the one found from here)'),
  ).action(async (folder: string, options: TargetOptions & { from?: string }) => {
    const target = await databaseVault(options.from, options);
    const { postgresBackend } = await import('../../../backends/postgres/index.js');
    const { exportVault } = await import('../../vault-copy/export-vault.js');
    // The store needs a folder for plugin-owned files; an export reads notes only, so a scratch one serves.
    const scratch = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'nk-export-'));
    const opened = await postgresBackend.create({
      folder: scratch,
      options: target,
      logger: createLogger({ level: 'warn' }),
      readOnly: true,
      servesSearch: false,
    });
    try {
      const report = await exportVault(opened.store!, folderOf(folder, false), progressBar());
      emit(
        options,
        { vault: target.vault, ...report },
        (r) =>
          `vault ${r.vault} → ${r.folder}: ${r.notes} notes in ${r.seconds.toFixed(1)} s (${r.notesPerSecond}/s), ${r.written} written, ${r.unchanged} unchanged`,
      );
    } finally {
      await opened.store?.close();
      await fs.promises.rm(scratch, { recursive: true, force: true });
    }
  });
}
