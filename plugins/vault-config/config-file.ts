/**
 * The VAULT_CONFIG service: the vault's `.flint-note/config.yml`, checked on every call so an
 * edit applies at once without a restart. Every write asks for it, so the parsed file is cached
 * and one stat per call tells whether the file changed since.
 */
import { loadYamlBounded } from '../../toolkit/markdown/frontmatter.js';
import type { VaultFiles } from '../../kernel/backend.js';
import { configIssue } from '../../kernel/config/config-keys.js';
import { ConfigError } from '../../kernel/errors.js';
import {
  DEFAULT_VAULT_CONFIG,
  unknownVaultConfigKeys,
  vaultConfigSchema,
  type VaultConfig,
} from '../../toolkit/vault-config.js';
import type { Logger } from '../../kernel/logger.js';
import { fileStamp } from '../../toolkit/files/file-stamp.js';
import type { VaultConfigService } from './service.js';

/**
 * `defaultType`, when the kernel's config sets one (the storage's `defaultType`), replaces the
 * file's `default_note_type`: the config file is the user's latest word, as a flag is over a
 * config (decision 027).
 */
export function createVaultConfig(
  files: VaultFiles,
  file: string,
  defaultType?: string,
  logger?: Logger,
): VaultConfigService {
  const absolute = files.resolve(file);
  const fallback = defaultType ? { ...DEFAULT_VAULT_CONFIG, default_note_type: defaultType } : DEFAULT_VAULT_CONFIG;
  let cached: { stamp: string; config: VaultConfig } | undefined;
  return {
    file,
    async get() {
      const stamp = await fileStamp(absolute);
      if (stamp === undefined) return fallback;
      if (cached?.stamp === stamp) return cached.config;
      // A miss reads through files.readText, which re-checks containment (a symlink swapped in is refused).
      const text = await files.readText(file);
      if (text === undefined) return fallback;
      const parsed = parseVaultConfig(text, file, logger);
      const config = defaultType ? { ...parsed, default_note_type: defaultType } : parsed;
      cached = { stamp, config };
      return config;
    },
  };
}

export function parseVaultConfig(text: string, file: string, logger?: Logger): VaultConfig {
  let data: unknown;
  try {
    data = loadYamlBounded(text);
  } catch (err) {
    const reason = (err as Error).message.split('\n')[0] ?? 'parse error';
    throw new ConfigError(`${file}: not valid YAML (${reason})`, { file, key: '(root)', reason });
  }
  const result = vaultConfigSchema.safeParse(data ?? {});
  if (!result.success) throw configIssue(file, result.error, [], vaultConfigSchema);
  // Once per version of the file: a changed file is parsed again, an unchanged one is cached.
  for (const { key, suggestion } of unknownVaultConfigKeys(data)) {
    logger?.warn(
      { file, key, ...(suggestion ? { did_you_mean: suggestion } : {}) },
      `${file}: ${key}: unknown key, ignored${suggestion ? `; did you mean "${suggestion}"?` : ''}`,
    );
  }
  return result.data;
}
