/**
 * Seed 003's logging variables: `LOG_LEVEL` (the seed's default `INFO`; any case) and
 * `LOG_FILE_PATH`, from the environment or a `.env` in the working directory (the environment
 * wins), for the notarium profile only: the names are too common to mean anything elsewhere.
 * They fill the config's `logging`; `--log-level`, `NOTEKERNEL_LOG_LEVEL` and `--log-file` still
 * win, as for every profile.
 */
import path from 'node:path';
import type { ResolvedConfig } from '../../kernel/config/schema.js';
import { dotenvFile, logLevelOf } from '../../backends/simplenote/settings.js';

export function withNotariumEnvironment(
  config: ResolvedConfig,
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
): ResolvedConfig {
  if (config.profile !== 'notarium') return config;
  const file = dotenvFile(cwd);
  const level = logLevelOf(env.LOG_LEVEL ?? file.LOG_LEVEL);
  const logFile = (env.LOG_FILE_PATH ?? file.LOG_FILE_PATH)?.trim();
  if (!level && !logFile) return config;
  return {
    ...config,
    logging: {
      ...config.logging,
      ...(level ? { level } : {}),
      ...(logFile ? { file: path.resolve(cwd, logFile) } : {}),
    },
  };
}
