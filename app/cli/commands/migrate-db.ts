/**
 * `notekernel migrate-db --config F` (or `--url U`): brings a postgres store's schema to this
 * version's migrations, under the same advisory lock the backend takes at open, and says what it
 * applied. For deployments whose serving role may not change the schema (`migrate: false`): an
 * owner role runs this once per upgrade.
 */
import type { Command } from 'commander';
import { silentLogger } from '../../../kernel/logger.js';
import { ValidationError } from '../../../kernel/errors.js';
import { emit, withJsonOption, type OutputOptions } from '../output/print.js';
import { postgresTarget } from './postgres-target.js';

interface MigrateOptions extends OutputOptions {
  config?: string;
  url?: string;
  schema?: string;
}

export function addMigrateDbCommand(program: Command): void {
  withJsonOption(
    program
      .command('migrate-db')
      .description("apply the postgres store's pending schema migrations (the config's storage options, or --url)")
      .option('-c, --config <file>', 'config file whose storage is postgres')
      .option('--url <url>', 'the database, instead of a config file')
      .option('--schema <name>', "the schema (default: the config's, else notekernel)"),
  ).action(async (options: MigrateOptions) => {
    const target = await postgresTarget(options);
    if (!target)
      throw new ValidationError(
        'The config does not keep its notes in postgres: pass --url or a config with storage.backend: postgres.',
        {
          field: 'config',
        },
      );
    const { migrate } = await import('../../../backends/postgres/migrations.js');
    const { connectionUrl } = await import('../../../backends/postgres/index.js');
    const { openPool, redactUrl, storeError } = await import('../../../backends/postgres/driver.js');
    const url = connectionUrl(target.options);
    const { pool } = openPool(url, target.options.ssl, silentLogger(), 1);
    try {
      const report = await migrate(pool, target.options.schema);
      emit(options, { database: redactUrl(url), schema: target.options.schema, ...report }, (r) =>
        r.applied.length
          ? `${r.database} schema ${r.schema}: version ${r.from} → ${r.to}\n${r.applied.map((a) => `  applied ${a.version}: ${a.description}`).join('\n')}`
          : `${r.database} schema ${r.schema}: at version ${r.to}, nothing to apply`,
      );
    } catch (err) {
      throw storeError(err, url);
    } finally {
      await pool.end().catch(() => undefined);
    }
  });
}
