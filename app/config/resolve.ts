/**
 * Merges a user config over its profile preset. Unknown ids fail here, listing the known
 * ones, so a bad config never gets as far as opening a vault.
 */
import { ConfigError } from '../../kernel/errors.js';
import { closestName, configIssue } from '../../kernel/config/config-keys.js';
import type { ResolvedConfig } from '../../kernel/config/schema.js';
import type { ProfilePreset } from '../../profiles/catalogue-types.js';
import { messageLimit, userConfigSchema, type UserConfig } from './user-config.js';

/** The ids a config is checked against. */
export interface CatalogueIds {
  profiles: readonly ProfilePreset[];
  pluginIds: readonly string[];
  backendIds: readonly string[];
}

/** Validates raw config data (from a file or the library), naming the source and the key path. */
export function parseUserConfig(raw: unknown, source: string): UserConfig {
  const result = userConfigSchema.safeParse(raw ?? {});
  if (!result.success) throw configIssue(source, result.error, [], userConfigSchema);
  return result.data;
}

export function resolveConfig(
  user: UserConfig,
  source: string,
  catalogue: CatalogueIds,
  overrides: { profile?: string } = {},
): ResolvedConfig {
  const profileId = overrides.profile ?? user.profile ?? 'flint';
  const preset = catalogue.profiles.find((p) => p.id === profileId);
  if (!preset) {
    const known = catalogue.profiles.map((p) => p.id).join(', ');
    throw new ConfigError(`${source}: profile: unknown profile "${profileId}"; known profiles: ${known}`, {
      file: source,
      key: 'profile',
      known: catalogue.profiles.map((p) => p.id),
    });
  }

  const storageBackend = user.storage?.backend ?? preset.storage.backend;
  const sameStorage = storageBackend === preset.storage.backend;
  const storage = {
    backend: storageBackend,
    options: { ...(sameStorage ? preset.storage.options : {}), ...(user.storage?.options ?? {}) },
  };
  assertKnown(storage.backend, catalogue.backendIds, 'backend', source, 'storage.backend');

  let search: ResolvedConfig['search'];
  if (user.search === false) search = undefined;
  else if (user.search) search = { backend: user.search.backend, options: { ...(user.search.options ?? {}) } };
  else if (preset.search) search = { backend: preset.search.backend, options: { ...(preset.search.options ?? {}) } };
  if (search) assertKnown(search.backend, catalogue.backendIds, 'backend', source, 'search.backend');

  const plugins = new Map<string, Record<string, unknown>>();
  for (const [id, setting] of Object.entries(preset.plugins)) plugins.set(id, setting === true ? {} : { ...setting });
  for (const [id, setting] of Object.entries(user.plugins ?? {})) {
    assertKnown(id, catalogue.pluginIds, 'plugin', source, `plugins.${id}`);
    if (setting === false) plugins.delete(id);
    else if (setting === true) plugins.set(id, plugins.get(id) ?? {});
    else plugins.set(id, { ...(plugins.get(id) ?? {}), ...setting });
  }

  return {
    profile: profileId,
    source,
    ...(user.vault !== undefined ? { vault: user.vault } : {}),
    readOnly: user.readOnly ?? false,
    storage,
    ...(search ? { search } : {}),
    plugins: [...plugins].map(([id, options]) => ({ id, options })),
    tools: {
      rename: { ...(preset.tools?.rename ?? {}), ...(user.tools?.rename ?? {}) },
      hide: [...(preset.tools?.hide ?? []), ...(user.tools?.hide ?? [])],
    },
    logging: { ...(user.logging ?? {}) },
    http: { ...(user.http ?? {}) },
    limits: { messageBytes: messageLimit(user.limits?.messageBytes) },
  };
}

function assertKnown(id: string, known: readonly string[], kind: string, source: string, key: string): void {
  if (known.includes(id)) return;
  const suggestion = closestName(id, known);
  throw new ConfigError(
    `${source}: ${key}: unknown ${kind} "${id}"${suggestion ? `; did you mean "${suggestion}"?` : ''}; known ${kind}s: ${known.join(', ')}`,
    {
      file: source,
      key,
      known: [...known],
      ...(suggestion ? { did_you_mean: suggestion } : {}),
    },
  );
}
