/**
 * The Simperium HTTP API for one user's note bucket (wire notes: issue 13's simperium.md):
 * authorize with the API key, then `X-Simperium-Token` on every data call; a 401 re-authorises
 * once. Writes are whole note objects with a fresh ccid each, so a retried POST is de-duplicated
 * by the server instead of applied twice; `response=1` returns the object as stored.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from '../../../kernel/logger.js';
import type { SimperiumConfig } from './config.js';
import {
  SimperiumAuthError,
  SimperiumNotFoundError,
  SimperiumRequestError,
  SimperiumTimeoutError,
  SimperiumTooLargeError,
  SimperiumUnavailableError,
  reasonOf,
} from './errors.js';
import { Transport, type HttpRequest, type HttpResponse, type Unreachable } from './transport.js';

export type SimperiumObject = Record<string, unknown>;

export interface IndexPage {
  current: string;
  entries: Array<{ id: string; v: number; d?: SimperiumObject }>;
  mark?: string;
}

export interface StoredObject {
  version: number;
  data: SimperiumObject;
}

export class SimperiumClient {
  private readonly transport: Transport;
  private token: string | undefined;
  private authorizing: Promise<string> | undefined;

  constructor(
    private readonly config: SimperiumConfig,
    private readonly logger: Logger,
    private readonly bucket = 'note',
  ) {
    this.transport = new Transport(config, logger);
  }

  /** Logs in (again); the token stays in memory only. */
  async authorize(): Promise<void> {
    this.token = undefined;
    await this.currentToken();
  }

  /**
   * Pages of the bucket index, newest change first, following `mark` until it is absent (`mark`
   * resumes a listing). A page past API_MAX_RESPONSE_MB is asked for again at half the size, so
   * only a single object above the cap stops a sync.
   */
  async *index(
    options: { since?: string; limit?: number; data?: boolean; mark?: string } = {},
  ): AsyncGenerator<IndexPage> {
    let mark: string | undefined = options.mark;
    let limit = options.limit ?? 100;
    const seen = new Set<string>();
    for (;;) {
      const params: Record<string, string> = { limit: String(limit) };
      if (options.data) params.data = '1';
      if (options.since) params.since = options.since;
      if (mark) params.mark = mark;
      let res: HttpResponse;
      try {
        res = await this.data({ method: 'GET', path: 'index', params, retrySafe: true, expectJson: true });
      } catch (err) {
        if (!(err instanceof SimperiumTooLargeError) || limit === 1) throw err;
        limit = Math.ceil(limit / 2);
        this.logger.info({ limit }, 'simperium index page too large; asking for smaller pages');
        continue;
      }
      if (res.status !== 200) throw this.failure(res, 'GET', 'index');
      const body = res.json as { current?: unknown; index?: unknown; mark?: unknown };
      if (typeof body?.current !== 'string' || !Array.isArray(body.index))
        throw new SimperiumUnavailableError('Simperium sent an index page without `current` or `index`.', {
          method: 'GET',
          path: 'index',
        });
      const page: IndexPage = { current: body.current, entries: body.index as IndexPage['entries'] };
      mark = typeof body.mark === 'string' && !seen.has(body.mark) ? body.mark : undefined; // a repeated mark would loop forever
      if (mark) (page.mark = mark), seen.add(mark);
      yield page;
      if (!mark) return;
    }
  }

  /**
   * The object (at `version`, else the latest), or undefined when it does not exist. `budgetMs`:
   * give up sooner than API_TIMEOUT_SECONDS, login included (a read the cache can answer).
   */
  async get(id: string, version?: number, options: { budgetMs?: number } = {}): Promise<StoredObject | undefined> {
    const path = objectPath(id, version);
    const res = await this.data({ method: 'GET', path, retrySafe: true, expectJson: true }, options.budgetMs);
    if (res.status === 404) return undefined;
    if (res.status !== 200) throw this.failure(res, 'GET', path);
    return { version: versionOf(res), data: res.json as SimperiumObject };
  }

  /**
   * Writes a whole object. `baseVersion` tells the server which version the object was derived
   * from, so it merges with changes made since instead of overwriting them. Returns undefined
   * when the server answers 412: nothing changed.
   */
  async put(
    id: string,
    data: SimperiumObject,
    options: { baseVersion?: number } = {},
  ): Promise<StoredObject | undefined> {
    const path = objectPath(id, options.baseVersion);
    const params = { response: '1', ccid: randomUUID().replace(/-/g, '') };
    const res = await this.data({
      method: 'POST',
      path,
      params,
      body: JSON.stringify(data),
      headers: { 'Content-Type': 'application/json' },
      retrySafe: true,
      expectJson: true,
    });
    if (res.status === 412) return undefined;
    if (res.status === 404)
      throw new SimperiumNotFoundError(
        `Note ${id} no longer exists on Simplenote (version ${options.baseVersion ?? 'latest'} not found).`,
        { method: 'POST', path, status: 404 },
      );
    if (res.status !== 200) throw this.failure(res, 'POST', path);
    return { version: versionOf(res), data: (res.json as SimperiumObject | undefined) ?? data };
  }

  /** Deletes for good (the note must be trashed first); an object already gone counts as deleted. */
  async destroy(id: string): Promise<void> {
    const path = objectPath(id);
    const res = await this.data({ method: 'DELETE', path, retrySafe: true });
    if (res.status !== 200 && res.status !== 404) throw this.failure(res, 'DELETE', path);
  }

  /** Whether Simperium is taken for unreachable now (requests fail fast), and since when. */
  unreachable(): Unreachable | undefined {
    return this.transport.unreachable();
  }

  /** A data-host call with the token; a 401 re-authorises once, a second 401 is an auth error. */
  private async data(request: Omit<HttpRequest, 'baseUrl'>, budgetMs?: number): Promise<HttpResponse> {
    const deadline = budgetMs === undefined ? undefined : Date.now() + budgetMs;
    const left = () => (deadline === undefined ? {} : { budgetMs: Math.max(1, deadline - Date.now()) });
    const path = `1/${encodeURIComponent(this.config.appId)}/${this.bucket}/${request.path}`;
    const call = async (token: string) =>
      this.transport.send(
        { ...request, baseUrl: this.config.apiUrl, path, headers: { ...request.headers, 'X-Simperium-Token': token } },
        left(),
      );
    const token = () =>
      deadline === undefined ? this.currentToken() : this.tokenWithin(deadline - Date.now(), request);
    const first = await call(await token());
    if (first.status !== 401) return first;
    this.logger.info({ path: request.path }, 'simperium token rejected; logging in again');
    this.token = undefined;
    const second = await call(await token());
    if (second.status === 401)
      throw new SimperiumAuthError(
        'Simplenote rejected a fresh login token; check SIMPLENOTE_USERNAME and SIMPLENOTE_PASSWORD.',
        { method: request.method, path: request.path, status: 401 },
      );
    return second;
  }

  /** The token, or a timeout after `ms` (the login goes on, bounded by its own deadline; Simperium is marked slow meanwhile). */
  private async tokenWithin(ms: number, request: Pick<HttpRequest, 'method' | 'path'>): Promise<string> {
    const login = this.currentToken();
    login.catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => {
          const message = `Simplenote (Simperium) login: no answer within ${Math.round(ms / 100) / 10} s.`;
          this.transport.markDown(message);
          reject(
            new SimperiumTimeoutError(message, {
              method: request.method,
              path: request.path,
              timeoutMs: Math.round(ms),
            }),
          );
        },
        Math.max(1, ms),
      );
    });
    try {
      return await Promise.race([login, late]);
    } finally {
      clearTimeout(timer);
    }
  }

  private currentToken(): Promise<string> {
    if (this.token) return Promise.resolve(this.token);
    this.authorizing ??= this.login().finally(() => (this.authorizing = undefined));
    return this.authorizing;
  }

  private async login(): Promise<string> {
    const path = `1/${encodeURIComponent(this.config.appId)}/authorize/`;
    const facts = { method: 'POST', path };
    if (!this.config.username || !this.config.password)
      throw new SimperiumAuthError('Simplenote needs SIMPLENOTE_USERNAME and SIMPLENOTE_PASSWORD.', facts);
    const res = await this.transport.send({
      method: 'POST',
      baseUrl: this.config.authUrl,
      path,
      headers: { 'X-Simperium-API-Key': this.config.apiKey, 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: this.config.username, password: this.config.password }),
      // A login changes nothing on the server: repeating it is safe.
      retrySafe: true,
      expectJson: true,
    });
    const token = (res.json as { access_token?: unknown } | undefined)?.access_token;
    if (res.status === 200 && typeof token === 'string' && token) return (this.token = token);
    const reason = reasonOf(res.text) || `status ${res.status}`;
    throw new SimperiumAuthError(
      `Simplenote login failed (${reason}); check SIMPLENOTE_USERNAME and SIMPLENOTE_PASSWORD.`,
      { ...facts, status: res.status },
    );
  }

  private failure(res: HttpResponse, method: string, path: string): Error {
    const facts = { method, path, status: res.status };
    if (res.status === 400)
      return new SimperiumRequestError(`Simplenote refused the request: ${reasonOf(res.text) || 'bad request'}.`, {
        ...facts,
        reason: reasonOf(res.text),
      });
    return new SimperiumUnavailableError(
      `Simplenote answered ${method} ${path} with status ${res.status}${res.text ? `: ${reasonOf(res.text)}` : ''}.`,
      facts,
    );
  }
}

function objectPath(id: string, version?: number): string {
  return `i/${encodeURIComponent(id)}${version !== undefined ? `/v/${version}` : ''}`;
}

function versionOf(res: HttpResponse): number {
  const version = Number(res.headers['x-simperium-version']);
  if (!Number.isInteger(version))
    throw new SimperiumUnavailableError('Simperium sent no X-Simperium-Version header.', {
      method: 'GET',
      path: 'i/…',
      status: res.status,
    });
  return version;
}
