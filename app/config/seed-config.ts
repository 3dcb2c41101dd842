/**
 * Config files as a seed system writes them (decision 040). Seed 001's `config.yaml` is flat:
 * `templates_directory`, `output_directory`, … at the top level, named by `CONFIG_PATH`. Such a
 * file is read as the notekernel config it means: the keys move under `plugins.<plugin>`, the
 * profile is the seed's unless the file names one, and without a `vault` the folder the seed
 * writes to (`output_directory`) is the vault. Data only: the app imports no profile for it.
 */
import os from 'node:os';
import path from 'node:path';

export interface SeedConfigFormat {
  profile: string;
  plugin: string;
  keys: readonly string[];
  /** The key whose folder is the vault when the file names none. */
  vaultFrom?: string;
}

export const SEED_CONFIG_FORMATS: readonly SeedConfigFormat[] = [
  {
    profile: 'zettelkasten',
    plugin: 'card-workflow',
    keys: [
      'templates_directory',
      'output_directory',
      'naming_conventions_file',
      'template_mapping_file',
      'file_operations',
    ],
    vaultFrom: 'output_directory',
  },
];

/** The variable seed 001 names its config file with; read when no config file is given. */
export const SEED_CONFIG_ENV = 'CONFIG_PATH';

function expandHome(value: string): string {
  return value === '~' || value.startsWith('~/') ? path.join(os.homedir(), value.slice(1)) : value;
}

/**
 * Moves a seed format's top-level keys to where a notekernel config has them; anything else is
 * returned as it is (unknown keys are then refused as usual). `file` is the config file, against
 * whose folder a relative vault folder resolves.
 */
export function liftSeedConfig(raw: unknown, file?: string): unknown {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return raw;
  const top = raw as Record<string, unknown>;
  for (const format of SEED_CONFIG_FORMATS) {
    const found = format.keys.filter((key) => key in top);
    if (!found.length || (top.profile !== undefined && top.profile !== format.profile)) continue;
    const rest: Record<string, unknown> = { ...top, profile: top.profile ?? format.profile };
    const lifted: Record<string, unknown> = {};
    for (const key of found) {
      lifted[key] = top[key];
      delete rest[key];
    }
    const plugins =
      typeof top.plugins === 'object' && top.plugins !== null ? { ...(top.plugins as Record<string, unknown>) } : {};
    const nested = plugins[format.plugin];
    // What the file also sets in notekernel's own form wins over the flat keys.
    const options: Record<string, unknown> = {
      ...lifted,
      ...(typeof nested === 'object' && nested !== null ? (nested as Record<string, unknown>) : {}),
    };
    const folder = format.vaultFrom ? options[format.vaultFrom] : undefined;
    if (rest.vault === undefined && typeof folder === 'string' && folder.trim() !== '' && format.vaultFrom) {
      const absolute = path.resolve(file ? path.dirname(file) : process.cwd(), expandHome(folder.trim()));
      rest.vault = absolute;
      options[format.vaultFrom] = absolute;
    }
    plugins[format.plugin] = options;
    rest.plugins = plugins;
    return rest;
  }
  return raw;
}
