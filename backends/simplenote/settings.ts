/**
 * Seed 003 §4's settings: environment variables, a `.env` file in the working directory (dotenv),
 * or the same keys in the profile config (`storage.options`). The process environment wins over
 * `.env`, which wins over the config, which wins over the defaults — the usual dotenv order, so
 * an MCP host's `env` block always has the last word.
 */
import fs from 'node:fs';
import path from 'node:path';
import dotenv from 'dotenv';
import type { BackendSetting } from '../../kernel/backend.js';
import { ConfigError } from '../../kernel/errors.js';
import {
  intervalFromEnv,
  maxResponseMbOf,
  SIMPLENOTE_API_KEY,
  SIMPLENOTE_APP_ID,
  timeoutSecondsOf,
} from './client/config.js';

interface SettingSpec {
  name: string;
  purpose: string;
  default?: string;
  secret?: boolean;
  required?: boolean;
  /** The value as it is used, from the value as given (clamped to its minimum, say). */
  effective?: (given: string) => string;
}

const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal'];

export const SETTING_SPECS: readonly SettingSpec[] = [
  { name: 'SIMPLENOTE_USERNAME', purpose: 'the Simplenote account (its email address)', required: true },
  { name: 'SIMPLENOTE_PASSWORD', purpose: 'the Simplenote password (never logged)', secret: true, required: true },
  {
    name: 'SYNC_INTERVAL_SECONDS',
    purpose: 'seconds between background delta syncs (at least 60; 0 turns them off)',
    default: '300',
    effective: (v) => String(intervalFromEnv(v)),
  },
  {
    name: 'API_TIMEOUT_SECONDS',
    purpose: 'deadline of one request to Simperium, retries included (at least 5)',
    default: '30',
    effective: (v) => String(timeoutSecondsOf(v)),
  },
  {
    name: 'API_MAX_RESPONSE_MB',
    purpose: 'largest answer read from Simperium, in MB; a larger one is aborted as it streams in (at least 1)',
    default: '24',
    effective: (v) => String(maxResponseMbOf(v)),
  },
  {
    name: 'LOG_LEVEL',
    purpose: `log level: ${LOG_LEVELS.join(', ')} (--log-level and NOTEKERNEL_LOG_LEVEL win over it)`,
    default: 'info',
    effective: (v) => logLevelOf(v) ?? 'info',
  },
  { name: 'LOG_FILE_PATH', purpose: 'log file instead of stderr (--log-file wins over it)' },
  { name: 'DB_ENCRYPTION_KEY', purpose: 'not used: the sql.js cache is not encrypted (seed 003 §5)', secret: true },
  { name: 'DB_ENCRYPTION_KDF_ITERATIONS', purpose: 'not used (SQLCipher only)', default: '310000' },
  { name: 'SIMPERIUM_AUTH_URL', purpose: 'Simperium auth host (a full URL)', default: 'https://auth.simperium.com' },
  { name: 'SIMPERIUM_API_URL', purpose: 'Simperium data host (a full URL)', default: 'https://api.simperium.com' },
  { name: 'SIMPERIUM_APP_ID', purpose: "Simperium app id (Simplenote's by default)", default: SIMPLENOTE_APP_ID },
  {
    name: 'SIMPERIUM_API_KEY',
    purpose: "Simperium API key (Simplenote's public client key by default)",
    default: SIMPLENOTE_API_KEY,
    secret: true,
  },
  {
    name: 'NOTARIUM_CACHE_DIR',
    purpose: 'cache folder (overridden by --vault DIR; default XDG_CACHE_HOME/notekernel/simplenote)',
  },
];

export const SETTING_NAMES = SETTING_SPECS.map((s) => s.name);

export type SettingValues = Partial<Record<string, string | number>>;

export interface ResolvedSettings {
  /** The environment the backend reads: every setting's effective value (defaults left to the readers). */
  env: NodeJS.ProcessEnv;
  sources: Map<string, BackendSetting['source']>;
}

/** `.env` in `cwd`, parsed without touching process.env; empty when absent or unreadable. */
export function dotenvFile(cwd: string = process.cwd()): Record<string, string> {
  try {
    return dotenv.parse(fs.readFileSync(path.join(cwd, '.env')));
  } catch {
    return {};
  }
}

export function resolveSettings(
  processEnv: NodeJS.ProcessEnv,
  fromConfig: SettingValues,
  fromDotenv: Record<string, string>,
): ResolvedSettings {
  const env: NodeJS.ProcessEnv = { ...processEnv };
  const sources = new Map<string, BackendSetting['source']>();
  for (const spec of SETTING_SPECS) {
    const configValue = fromConfig[spec.name];
    if (processEnv[spec.name] !== undefined && processEnv[spec.name] !== '') sources.set(spec.name, 'environment');
    else if (fromDotenv[spec.name] !== undefined)
      (env[spec.name] = fromDotenv[spec.name]), sources.set(spec.name, '.env');
    else if (configValue !== undefined) (env[spec.name] = String(configValue)), sources.set(spec.name, 'config');
    else sources.set(spec.name, spec.default !== undefined ? 'default' : 'unset');
  }
  return { env, sources };
}

/** What `serve --print-config-vars` lists: each setting, its effective value and where it came from. */
export function describeSettings(resolved: ResolvedSettings): BackendSetting[] {
  return SETTING_SPECS.map((spec) => {
    const source = resolved.sources.get(spec.name) ?? 'unset';
    const given = source === 'default' ? spec.default : source === 'unset' ? undefined : resolved.env[spec.name];
    const value = given !== undefined && spec.effective ? spec.effective(given) : given;
    return {
      name: spec.name,
      purpose: spec.purpose,
      source,
      ...(value !== undefined ? { value } : {}),
      ...(spec.secret ? { secret: true } : {}),
      ...(spec.required ? { required: true } : {}),
    };
  });
}

/** LOG_LEVEL as pino takes it (the seed writes `INFO`); undefined for a level it does not know. */
export function logLevelOf(value: string | undefined): string | undefined {
  const level = value?.trim().toLowerCase();
  return level && LOG_LEVELS.includes(level) ? level : undefined;
}

/** Fails, naming the variable, when a credential is missing. */
export function requireCredentials(env: NodeJS.ProcessEnv): void {
  for (const spec of SETTING_SPECS) {
    if (spec.required && !env[spec.name]) {
      throw new ConfigError(
        `${spec.name} is not set: ${spec.purpose}. Set it in the environment, in .env, or as storage.options.${spec.name} in the config.`,
        { variable: spec.name },
      );
    }
  }
}
