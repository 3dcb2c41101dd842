/**
 * One HTTP exchange with Simperium, retried where that is safe: 429, 5xx, timeouts and dropped
 * connections are retried with exponential backoff and jitter, honouring `Retry-After`, but only
 * for a request marked `retrySafe` (a GET, a DELETE, or a POST carrying a ccid the server
 * de-duplicates). Everything else comes back to the caller to interpret. Headers and bodies
 * are never logged: they hold the token and the password.
 */
import axios, { type AxiosInstance } from 'axios';
import { backoff } from '../../../toolkit/backoff.js';
import type { Logger } from '../../../kernel/logger.js';
import type { SimperiumConfig } from './config.js';
import { SimperiumTimeoutError, SimperiumTooLargeError, SimperiumUnavailableError } from './errors.js';

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

/** After a request found Simperium unreachable (or too slow), others fail fast for this long. */
export const UNREACHABLE_COOLDOWN_MS = 15_000;

export interface Unreachable {
  /** ISO-8601 of the first failure in this run of failures. */
  since: string;
  problem: string;
  /** Requests fail fast until then (ISO-8601). */
  until: string;
}

export class Transport {
  private readonly http: AxiosInstance;
  private down: { since: number; until: number; problem: string } | undefined;

  constructor(
    private readonly config: Pick<
      SimperiumConfig,
      'timeoutMs' | 'maxResponseBytes' | 'maxAttempts' | 'baseDelayMs' | 'maxDelayMs'
    >,
    private readonly logger: Logger,
  ) {
    this.http = axios.create({
      responseType: 'text',
      transformResponse: [(data: unknown) => data],
      validateStatus: () => true,
      maxRedirects: 0,
      // axios counts the body as it streams in and aborts past this, so nothing bigger is buffered.
      maxContentLength: config.maxResponseBytes,
      maxBodyLength: config.maxResponseBytes,
    });
  }

  /**
   * One request, retried where safe, ended by its deadline (`API_TIMEOUT_SECONDS`, or a shorter
   * `budgetMs`) whatever the server does: an AbortSignal per attempt bounds the whole exchange,
   * not only an idle socket, and no backoff sleeps past the deadline.
   */
  async send(request: HttpRequest, options: { budgetMs?: number } = {}): Promise<HttpResponse> {
    const facts = { method: request.method, path: request.path };
    const down = this.unreachable();
    if (down) {
      throw new SimperiumUnavailableError(
        `Simplenote (Simperium) is unreachable since ${down.since} (${down.problem}); not asked again before ${down.until}, so nothing was sent. The cache still answers list and get; try again after that.`,
        { ...facts, unreachableSince: down.since, retryAfter: down.until },
      );
    }
    try {
      const response = await this.attempts(request, options);
      this.down = undefined;
      return response;
    } catch (err) {
      if (
        err instanceof SimperiumTimeoutError ||
        (err instanceof SimperiumUnavailableError && (err.details.attempts as number) > 0)
      )
        this.markDown((err as Error).message);
      throw err;
    }
  }

  /** While Simperium is taken for unreachable: since when, why, and until when requests fail fast. */
  unreachable(): Unreachable | undefined {
    if (!this.down || Date.now() >= this.down.until) return undefined;
    return {
      since: new Date(this.down.since).toISOString(),
      problem: this.down.problem,
      until: new Date(this.down.until).toISOString(),
    };
  }

  /** A request (or a caller's budget) found Simperium unreachable or too slow: others fail fast for a while. */
  markDown(problem: string): void {
    const now = Date.now();
    this.down = {
      since: this.down?.since ?? now,
      until: now + UNREACHABLE_COOLDOWN_MS,
      problem: problem.replace(/^Simplenote \(Simperium\) /, '').slice(0, 200),
    };
  }

  private async attempts(request: HttpRequest, options: { budgetMs?: number }): Promise<HttpResponse> {
    const facts = { method: request.method, path: request.path };
    const budgetMs = Math.min(this.config.timeoutMs, options.budgetMs ?? Infinity);
    const deadline = Date.now() + budgetMs;
    const attempts = request.retrySafe ? this.config.maxAttempts : 1;
    let lastProblem = 'no attempt made';
    let timedOut = false;
    let attempt = 0;
    while (attempt < attempts) {
      attempt += 1;
      const left = deadline - Date.now();
      if (left <= 0) break;
      const last = attempt === attempts;
      let response: HttpResponse;
      try {
        response = await this.exchange(request, last ? left : (left * 2) / 3);
      } catch (err) {
        if (isTooLarge(err)) {
          const bytes = this.config.maxResponseBytes;
          const limit = bytes >= 1024 * 1024 ? `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB` : `${bytes} bytes`;
          const what = /maxBodyLength/.test((err as Error).message) ? 'the request body passed' : 'the answer passed';
          this.logger.warn({ ...facts, limitBytes: bytes }, 'simperium exchange too large; aborted');
          throw new SimperiumTooLargeError(
            `Simplenote (Simperium) ${request.method} ${request.path}: ${what} API_MAX_RESPONSE_MB (${limit}) and was aborted unread. Raise API_MAX_RESPONSE_MB if your notes are really that large.`,
            { ...facts, setting: 'API_MAX_RESPONSE_MB', limitBytes: this.config.maxResponseBytes },
          );
        }
        timedOut = isTimeout(err);
        lastProblem = timedOut ? 'no complete answer in time' : `connection failed (${codeOf(err)})`;
        this.logger.warn({ ...facts, attempt, problem: lastProblem }, 'simperium request failed');
        if (!(await this.pause(this.backoff(attempt), deadline, last))) break;
        continue;
      }
      timedOut = false;
      if (RETRY_STATUSES.has(response.status)) {
        lastProblem = `status ${response.status}`;
        const wait = retryAfterMs(response.headers['retry-after']) ?? this.backoff(attempt);
        this.logger.warn({ ...facts, attempt, status: response.status, waitMs: wait }, 'simperium asked us to retry');
        if (!(await this.pause(wait, deadline, last))) return response;
        continue;
      }
      this.logger.debug({ ...facts, attempt, status: response.status }, 'simperium request');
      return response;
    }
    const seconds = Math.round(budgetMs / 100) / 10;
    if (timedOut || Date.now() >= deadline) {
      const limit = budgetMs < this.config.timeoutMs ? `its ${seconds} s budget` : `API_TIMEOUT_SECONDS (${seconds} s)`;
      throw new SimperiumTimeoutError(
        `Simplenote (Simperium) ${request.method} ${request.path}: no complete answer within ${limit}, ${attempt} attempt(s); last: ${lastProblem}. Check the network, or raise API_TIMEOUT_SECONDS for a slow link.`,
        {
          ...facts,
          attempts: attempt,
          setting: 'API_TIMEOUT_SECONDS',
          timeoutMs: budgetMs,
        },
      );
    }
    throw new SimperiumUnavailableError(
      `Simplenote (Simperium) ${request.method} ${request.path} failed after ${attempt} attempt(s): ${lastProblem}. Check the network and try again.`,
      { ...facts, attempts: attempt },
    );
  }

  /** Sleeps before the next attempt; false when there is none, or it could not start before the deadline. */
  private async pause(ms: number, deadline: number, last: boolean): Promise<boolean> {
    if (last || Date.now() + ms >= deadline) return false;
    await sleep(ms);
    return true;
  }

  /** One attempt, aborted after `ms`; throws on a network failure, the size cap, or a 2xx that is not the JSON it should be. */
  private async exchange(request: HttpRequest, ms: number): Promise<HttpResponse> {
    const res = await this.http.request<string>({
      method: request.method,
      url: `${request.baseUrl}/${request.path}`,
      params: request.params,
      headers: request.headers,
      data: request.body,
      signal: AbortSignal.timeout(Math.max(1, Math.round(ms))),
    });
    const headers: Record<string, string> = {};
    for (const [key, value] of Object.entries(res.headers))
      if (typeof value === 'string') headers[key.toLowerCase()] = value;
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
    return backoff(attempt, { baseMs: this.config.baseDelayMs, maxMs: this.config.maxDelayMs, jitter: 0.5 });
  }
}

/** `Retry-After` as seconds or an HTTP date, capped; undefined when absent or unreadable. */
export function retryAfterMs(value: string | undefined, now = Date.now()): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const seconds = Number(value);
  const ms = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(value) - now;
  return Number.isFinite(ms) ? Math.min(MAX_RETRY_AFTER_MS, Math.max(0, ms)) : undefined;
}

/** Our AbortSignal.timeout fired (axios: ERR_CANCELED), or a socket timed out. */
function isTimeout(err: unknown): boolean {
  const code = codeOf(err);
  return code === 'ERR_CANCELED' || code === 'ECONNABORTED' || code === 'ETIMEDOUT';
}

/** axios's maxContentLength / maxBodyLength refusal. */
function isTooLarge(err: unknown): boolean {
  return /maxContentLength size of|maxBodyLength/.test((err as Error)?.message ?? '');
}

function codeOf(err: unknown): string {
  return (err as { code?: unknown })?.code ? String((err as { code: unknown }).code) : 'network error';
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
