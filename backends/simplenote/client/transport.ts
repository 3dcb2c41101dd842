/**
 * One HTTP exchange with Simperium, retried where that is safe: 429, 5xx, timeouts and dropped
 * connections are retried with exponential backoff and jitter, honouring `Retry-After`, but only
 * for a request marked `retrySafe` (a GET, a DELETE, or a POST carrying a ccid the server
 * de-duplicates). Everything else comes back to the caller to interpret. Headers and bodies
 * are never logged: they hold the token and the password.
 */
import axios, { type AxiosInstance } from 'axios';
import type { Logger } from '../../../kernel/logger.js';
import type { SimperiumConfig } from './config.js';
import { SimperiumTimeoutError, SimperiumUnavailableError } from './errors.js';

export interface HttpRequest {
  method: 'GET' | 'POST' | 'DELETE';
  baseUrl: string;
  /** Path below the base URL, ids already encoded. */
  path: string;
  params?: Record<string, string>;
  headers?: Record<string, string>;
  body?: string;
  retrySafe: boolean;
  /** A 2xx whose body is not JSON is a broken response (a cut connection), retried like one. */
  expectJson?: boolean;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  json?: unknown;
}

const RETRY_STATUSES = new Set([429, 500, 502, 503, 504]);
const MAX_RETRY_AFTER_MS = 60_000;

export class Transport {
  private readonly http: AxiosInstance;

  constructor(
    private readonly config: Pick<SimperiumConfig, 'timeoutMs' | 'maxAttempts' | 'baseDelayMs' | 'maxDelayMs'>,
    private readonly logger: Logger,
  ) {
    this.http = axios.create({
      timeout: config.timeoutMs,
      responseType: 'text',
      transformResponse: [(data: unknown) => data],
      validateStatus: () => true,
      maxRedirects: 0,
    });
  }

  async send(request: HttpRequest): Promise<HttpResponse> {
    const facts = { method: request.method, path: request.path };
    const attempts = request.retrySafe ? this.config.maxAttempts : 1;
    let lastProblem = 'no attempt made';
    let timedOut = false;
    for (let attempt = 1; attempt <= attempts; attempt += 1) {
      let response: HttpResponse;
      try {
        response = await this.exchange(request);
      } catch (err) {
        timedOut = isTimeout(err);
        lastProblem = timedOut ? `no answer within ${this.config.timeoutMs} ms` : `connection failed (${codeOf(err)})`;
        this.logger.warn({ ...facts, attempt, problem: lastProblem }, 'simperium request failed');
        if (attempt < attempts) await sleep(this.backoff(attempt));
        continue;
      }
      timedOut = false;
      if (RETRY_STATUSES.has(response.status)) {
        lastProblem = `status ${response.status}`;
        const wait = retryAfterMs(response.headers['retry-after']) ?? this.backoff(attempt);
        this.logger.warn({ ...facts, attempt, status: response.status, waitMs: wait }, 'simperium asked us to retry');
        if (attempt < attempts) await sleep(wait);
        else return response;
        continue;
      }
      this.logger.debug({ ...facts, attempt, status: response.status }, 'simperium request');
      return response;
    }
    const message = `Simplenote (Simperium) ${request.method} ${request.path} failed after ${attempts} attempt(s): ${lastProblem}. Check the network and try again.`;
    throw timedOut ? new SimperiumTimeoutError(message, { ...facts, attempts }) : new SimperiumUnavailableError(message, { ...facts, attempts });
  }

  /** One attempt; throws on a network failure or a 2xx that is not the JSON it should be. */
  private async exchange(request: HttpRequest): Promise<HttpResponse> {
    const res = await this.http.request<string>({
      method: request.method,
      url: `${request.baseUrl}/${request.path}`,
      params: request.params,
      headers: request.headers,
      data: request.body,
    });
    const headers: Record<string, string> = {};
    for (const [key, value] of Object.entries(res.headers)) if (typeof value === 'string') headers[key.toLowerCase()] = value;
    const text = typeof res.data === 'string' ? res.data : '';
    const response: HttpResponse = { status: res.status, headers, text };
    if (request.expectJson && res.status >= 200 && res.status < 300 && text !== '') {
      try {
        response.json = JSON.parse(text);
      } catch {
        throw Object.assign(new Error('truncated or non-JSON body'), { code: 'EBADBODY' });
      }
    }
    return response;
  }

  private backoff(attempt: number): number {
    const step = Math.min(this.config.maxDelayMs, this.config.baseDelayMs * 2 ** (attempt - 1));
    return Math.round(step / 2 + Math.random() * (step / 2));
  }
}

/** `Retry-After` as seconds or an HTTP date, capped; undefined when absent or unreadable. */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const seconds = Number(value);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(value) - now;
  return Number.isFinite(ms) ? Math.min(MAX_RETRY_AFTER_MS, Math.max(0, ms)) : undefined;
}

function isTimeout(err: unknown): boolean {
  const code = codeOf(err);
  return code === 'ECONNABORTED' || code === 'ETIMEDOUT';
}

function codeOf(err: unknown): string {
  return (err as { code?: unknown })?.code ? String((err as { code: unknown }).code) : 'network error';
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
