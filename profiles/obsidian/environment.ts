/**
 * Seed 004's configuration: `VAULT_PATH` (the vault) and `CHROMA_PATH` (where the search index
 * lives), from the environment or a `.env` file in the working directory — the environment
 * wins over `.env`, which wins over the config file (the dotenv order notarium follows too).
 * Read for the obsidian profile only: the names are too common to mean anything elsewhere.
 * `CHROMA_PATH` is the hybrid-search index's folder (`search.options.indexDir`), resolved
 * against the working directory as the seed's `./.chroma_db` is against its project.
 * `--vault` (and NOTEKERNEL_VAULT) still win over VAULT_PATH: the router takes them first.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import dotenv from 'dotenv';
import type { ResolvedConfig } from '../../kernel/config/schema.js';

export const OBSIDIAN_PROFILE = 'obsidian';
export const VAULT_PATH = 'VAULT_PATH';
export const CHROMA_PATH = 'CHROMA_PATH';

/** The two variables' values, the environment over `<cwd>/.env`; an unreadable `.env` counts as none. */
export function seedVariables(
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
): { vault?: string; index?: string } {
  let file: Record<string, string> = {};
  try {
    file = dotenv.parse(fs.readFileSync(path.join(cwd, '.env')));
  } catch {
    // no .env (or not readable): the environment alone
  }
  const pick = (name: string): string | undefined => {
    const value = (env[name] ?? file[name])?.trim();
    return value ? expandHome(value) : undefined;
  };
  const vault = pick(VAULT_PATH);
  const index = pick(CHROMA_PATH);
  return {
    ...(vault ? { vault: path.resolve(cwd, vault) } : {}),
    ...(index ? { index: path.resolve(cwd, index) } : {}),
  };
}

/** The resolved config with seed 004's variables applied (other profiles unchanged). */
export function withObsidianEnvironment(
  config: ResolvedConfig,
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
): ResolvedConfig {
  if (config.profile !== OBSIDIAN_PROFILE) return config;
  const { vault, index } = seedVariables(env, cwd);
  const search = config.search;
  const indexed = index && search?.backend === 'hybrid-search' && search.options.engine !== 'postgres';
  return {
    ...config,
    ...(vault ? { vault } : {}),
    ...(indexed ? { search: { ...search, options: { ...search.options, indexDir: index } } } : {}),
  };
}

function expandHome(value: string): string {
  return value === '~' || value.startsWith('~/') ? path.join(os.homedir(), value.slice(1)) : value;
}
