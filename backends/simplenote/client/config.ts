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
  /**
   * The whole request, retries included (API_TIMEOUT_SECONDS): past it the request is aborted,
   * however slowly bytes still arrive. An attempt that may be retried uses at most two thirds of
   * the time left, so a late answer to a write can still be confirmed by a retry with its ccid.
   */
  timeoutMs: number;
  /** The largest answer read (API_MAX_RESPONSE_MB); a larger one is aborted as it streams in, never buffered whole. */
  maxResponseBytes: number;
  /** Attempts per request, the first included. */
  maxAttempts: number;
  /** First backoff step; doubles per attempt, with jitter, up to `maxDelayMs`. */
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY = { maxAttempts: 5, baseDelayMs: 250, maxDelayMs: 10_000 } as const;

export const DEFAULT_MAX_RESPONSE_MB = 24;

/** API_TIMEOUT_SECONDS as used: default 30, at least 5 (seed 003 §4). */
export function timeoutSecondsOf(value: string | undefined): number {
  return Math.max(5, Number(value ?? 30) || 30);
}

/** API_MAX_RESPONSE_MB as used: default 24, at least 1. */
export function maxResponseMbOf(value: string | undefined): number {
  return Math.max(1, Number(value ?? DEFAULT_MAX_RESPONSE_MB) || DEFAULT_MAX_RESPONSE_MB);
}

/** SYNC_INTERVAL_SECONDS as used: default 300, at least 60 (0 turns background syncs off). */
export function intervalFromEnv(value: string | undefined): number {
  const seconds = Number(value ?? 300);
  if (!Number.isFinite(seconds)) return 300;
  return seconds === 0 ? 0 : Math.max(60, Math.round(seconds));
}

/** The seed's environment variables, with its defaults (API_TIMEOUT_SECONDS 30, at least 5), and API_MAX_RESPONSE_MB (24, at least 1). */
export function simperiumConfigFromEnv(
  env: NodeJS.ProcessEnv,
  overrides: Partial<SimperiumConfig> = {},
): SimperiumConfig {
  const timeoutSeconds = timeoutSecondsOf(env.API_TIMEOUT_SECONDS);
  const maxResponseMb = maxResponseMbOf(env.API_MAX_RESPONSE_MB);
  return {
    authUrl: trimSlash(env.SIMPERIUM_AUTH_URL ?? 'https://auth.simperium.com'),
    apiUrl: trimSlash(env.SIMPERIUM_API_URL ?? 'https://api.simperium.com'),
    appId: env.SIMPERIUM_APP_ID ?? SIMPLENOTE_APP_ID,
    apiKey: env.SIMPERIUM_API_KEY ?? SIMPLENOTE_API_KEY,
    username: env.SIMPLENOTE_USERNAME ?? '',
    password: env.SIMPLENOTE_PASSWORD ?? '',
    timeoutMs: timeoutSeconds * 1000,
    maxResponseBytes: Math.round(maxResponseMb * 1024 * 1024),
    ...DEFAULT_RETRY,
    ...overrides,
  };
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
