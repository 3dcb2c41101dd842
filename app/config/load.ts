/**
 * Finds the user's config with cosmiconfig (module name `notekernel`): an explicit path, else
 * the file `CONFIG_PATH` names (seed 001's variable, decision 040), else the vault folder, else
 * the working directory. No file at all is fine: the profile's preset applies unchanged.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError } from '../../kernel/errors.js';
import type { UserConfig } from './user-config.js';
import { parseUserConfig } from './resolve.js';
import { liftSeedConfig, SEED_CONFIG_ENV } from './seed-config.js';
import { loadTsConfig } from './ts-loader.js';

const MODULE = 'notekernel';

export const SEARCH_PLACES = [
  'package.json',
  `${MODULE}.config.yaml`,
  `${MODULE}.config.yml`,
  `${MODULE}.config.json`,
  `${MODULE}.config.js`,
  `${MODULE}.config.mjs`,
  `${MODULE}.config.cjs`,
  `${MODULE}.config.ts`,
  `.${MODULE}rc`,
  `.${MODULE}rc.json`,
  `.${MODULE}rc.yaml`,
  `.${MODULE}rc.yml`,
  `.${MODULE}rc.js`,
  `.${MODULE}rc.mjs`,
  `.${MODULE}rc.cjs`,
  `.${MODULE}rc.ts`,
  `.config/${MODULE}rc`,
  `.config/${MODULE}rc.json`,
  `.config/${MODULE}rc.yaml`,
  `.config/${MODULE}rc.yml`,
  `.config/${MODULE}rc.js`,
  `.config/${MODULE}rc.mjs`,
  `.config/${MODULE}rc.cjs`,
  `.config/${MODULE}rc.ts`,
];

export interface LoadedUserConfig {
  config: UserConfig;
  /** The file it came from, or undefined when none was found. */
  filepath?: string;
}

export async function loadUserConfig(
  options: { configPath?: string; searchFrom?: string[]; env?: NodeJS.ProcessEnv } = {},
): Promise<LoadedUserConfig> {
  // Seed 001 names its config file in CONFIG_PATH; an explicit --config wins, a searched file yields.
  const fromEnv = (options.env ?? process.env)[SEED_CONFIG_ENV]?.trim();
  if (!options.configPath && fromEnv) {
    const configPath =
      fromEnv === '~' || fromEnv.startsWith('~/') ? path.join(os.homedir(), fromEnv.slice(1)) : fromEnv;
    try {
      return await loadUserConfig({ configPath, env: {} });
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      throw new ConfigError(
        `${SEED_CONFIG_ENV}=${fromEnv}: ${err.message} (${SEED_CONFIG_ENV} names the config file when --config is not given; unset it or pass --config)`,
        { ...(err.details ?? {}), env: SEED_CONFIG_ENV },
      );
    }
  }
  const dirs = options.searchFrom ?? [process.cwd()];
  // cosmiconfig and its loaders cost tens of milliseconds; most runs have no config file at all.
  if (!options.configPath && !dirs.some(mayHoldConfig)) return { config: {} };
  const { cosmiconfig } = await import('cosmiconfig');
  // `.ts`: typescript found from the config file's folder (a global install brings none; ts-loader.ts).
  const explorer = cosmiconfig(MODULE, { searchPlaces: SEARCH_PLACES, cache: false, loaders: { '.ts': loadTsConfig } });
  if (options.configPath) {
    const filepath = path.resolve(options.configPath);
    let result;
    try {
      result = await explorer.load(filepath);
    } catch (err) {
      throw new ConfigError(`${filepath}: cannot be read: ${parseReason(err)}`, { file: filepath });
    }
    if (!result || result.isEmpty) return { config: parseConfigFile({}, filepath), filepath };
    return { config: parseConfigFile(result.config, filepath), filepath };
  }
  for (const dir of dirs) {
    let result;
    try {
      result = await explorer.search(dir);
    } catch (err) {
      throw new ConfigError(`config in ${dir}: cannot be read: ${parseReason(err)}`, { dir });
    }
    if (result && !result.isEmpty)
      return { config: parseConfigFile(result.config, result.filepath), filepath: result.filepath };
  }
  return { config: {} };
}

/** A config file's data, checked; a seed's own flat file (seed 001's config.yaml) read as the config it means. */
export function parseConfigFile(raw: unknown, file: string): UserConfig {
  return parseUserConfig(liftSeedConfig(raw ?? {}, file), file);
}

/**
 * Whether cosmiconfig could find anything in `dir`: a config file, or a package.json with a
 * `notekernel` key (a project's package.json without one is common in a working directory).
 * An unreadable package.json is left to cosmiconfig, which reports it.
 */
function mayHoldConfig(dir: string): boolean {
  if (SEARCH_PLACES.some((name) => name !== 'package.json' && fs.existsSync(path.join(dir, name)))) return true;
  let text: string;
  try {
    text = fs.readFileSync(path.join(dir, 'package.json'), 'utf8');
  } catch {
    return false;
  }
  try {
    const json: unknown = JSON.parse(text);
    return typeof json !== 'object' || json === null || MODULE in json;
  } catch {
    return true;
  }
}

/**
 * A parser's message without its code frames: cosmiconfig's JSON errors put the reason
 * ("Expected double-quoted property name … at position 21") between two excerpts of the file,
 * and a one-line `notekernel: config_invalid: …` showed the excerpt's first line only.
 */
function parseReason(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  const lines = message
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !/^(>\s*)?\d*\s*\|/.test(line));
  return [...new Set(lines)].join(' ');
}
