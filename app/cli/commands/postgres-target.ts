/**
 * The database a `migrate-db` or `doctor` run looks at: `--url` (with `--schema`), else the
 * postgres storage options of the config file (--config, or the one found from here), read with
 * the backend's own option schema so defaults (schema, DATABASE_URL, PG*) are the ones a served
 * vault uses.
 */
import { loadUserConfig } from '../../config/load.js';
import { ConfigError } from '../../../kernel/errors.js';
import type { PostgresOptions } from '../../../backends/postgres/index.js';

export interface PostgresTarget {
  options: PostgresOptions;
  /** Where the options came from, for messages. */
  source: string;
}

/** The postgres options in force, or undefined when the config's store is not postgres. */
export async function postgresTarget(args: {
  url?: string;
  schema?: string;
  config?: string;
  searchFrom?: string[];
}): Promise<PostgresTarget | undefined> {
  const { postgresOptions } = await import('../../../backends/postgres/index.js');
  if (args.url)
    return {
      options: postgresOptions.parse({ url: args.url, ...(args.schema ? { schema: args.schema } : {}) }),
      source: '--url',
    };
  const loaded = await loadUserConfig(
    args.config ? { configPath: args.config } : { searchFrom: args.searchFrom ?? [process.cwd()] },
  );
  if (loaded.config.storage?.backend !== 'postgres') return undefined;
  const parsed = postgresOptions.safeParse({
    ...(loaded.config.storage.options ?? {}),
    ...(args.schema ? { schema: args.schema } : {}),
  });
  if (!parsed.success)
    throw new ConfigError(`${loaded.filepath}: storage.options: ${parsed.error.issues[0]?.message ?? 'invalid'}`, {
      file: loaded.filepath,
    });
  return { options: parsed.data, source: loaded.filepath ?? 'config' };
}
