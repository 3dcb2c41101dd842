/**
 * Where and as whom the Simperium client connects. Hosts are full base URLs so tests (and
 * self-hosted proxies) can point the client at `http://127.0.0.1:PORT`; the app id and key
 * default to Simplenote's public client constants (seed 003 §5), which any user may override.
 */
export const SIMPLENOTE_APP_ID = 'chalk-bump-f49';
export const SIMPLENOTE_API_KEY = 'e2f0978acfea407aa23fdf557478d3f2';

export interface SimperiumConfig {
  authUrl: string;
  apiUrl: string;
  appId: string;
  apiKey: string;
  username: string;
  password: string;
  /** Per request; a request past it is retried like a 503. */
  timeoutMs: number;
  /** Attempts per request, the first included. */
  maxAttempts: number;
  /** First backoff step; doubles per attempt, with jitter, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY = { maxAttempts: 5, baseDelayMs: 250, maxDelayMs: 10_000 } as const;

/** The seed's environment variables, with its defaults (API_TIMEOUT_SECONDS 30, at least 5). */
export function simperiumConfigFromEnv(env: NodeJS.ProcessEnv, overrides: Partial<SimperiumConfig> = {}): SimperiumConfig {
  const timeoutSeconds = Math.max(5, Number(env.API_TIMEOUT_SECONDS ?? 30) || 30);
  return {
    authUrl: trimSlash(env.SIMPERIUM_AUTH_URL ?? 'https://auth.simperium.com'),
    apiUrl: trimSlash(env.SIMPERIUM_API_URL ?? 'https://api.simperium.com'),
    appId: env.SIMPERIUM_APP_ID ?? SIMPLENOTE_APP_ID,
    apiKey: env.SIMPERIUM_API_KEY ?? SIMPLENOTE_API_KEY,
    username: env.SIMPLENOTE_USERNAME ?? '',
    password: env.SIMPLENOTE_PASSWORD ?? '',
    timeoutMs: timeoutSeconds * 1000,
    ...DEFAULT_RETRY,
    ...overrides,
  };
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
