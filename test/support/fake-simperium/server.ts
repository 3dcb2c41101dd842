/**
 * A fake Simperium (auth host and data host on one loopback port) built from the wire notes in
 * docs of issue 13: what real clients send and need back. One server answers both hosts; a
 * client is given the same base URL for each. Tests reach in through `buckets` (another device
 * writing straight to the service), `revokeTokens` (an expired token) and `faults`.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { FakeBucket, NOTE_REQUIRED_FIELDS, cvString, parseCv, type ObjectData } from './bucket.js';
import { Faults, type Fault } from './faults.js';

export interface FakeSimperiumOptions {
  appId?: string;
  apiKey?: string;
  /** username → password */
  users?: Record<string, string>;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  /** A string is sent as text/plain, anything else as JSON; undefined sends no body. */
  body?: unknown;
}

export interface RequestRecord {
  method: string;
  path: string;
  query: URLSearchParams;
  status: number;
}

export class FakeSimperium {
  readonly appId: string;
  readonly apiKey: string;
  readonly faults = new Faults();
  readonly requests: RequestRecord[] = [];
  private readonly users: Record<string, string>;
  private readonly tokens = new Map<string, string>();
  private readonly bucketMap = new Map<string, FakeBucket>();
  /** ccid → the reply first given, replayed for a retried change (never applied twice). */
  private readonly ccids = new Map<string, Reply>();
  private server?: http.Server;
  private baseUrl = '';

  constructor(options: FakeSimperiumOptions = {}) {
    this.appId = options.appId ?? 'chalk-bump-f49';
    this.apiKey = options.apiKey ?? 'fake-api-key';
    this.users = { ...(options.users ?? { 'user@example.com': 'secret-password' }) };
  }

  get url(): string {
    return this.baseUrl;
  }

  bucket(name = 'note'): FakeBucket {
    let bucket = this.bucketMap.get(name);
    if (!bucket) this.bucketMap.set(name, (bucket = new FakeBucket()));
    return bucket;
  }

  /** Every token issued so far stops working (the data host answers 401). */
  revokeTokens(): void {
    this.tokens.clear();
  }

  async start(): Promise<string> {
    const server = http.createServer((req, res) => void this.serve(req, res));
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this.baseUrl;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const method = req.method ?? 'GET';
    const body = await readBody(req);
    const fault = this.faults.take(method, url.pathname, url.search.slice(1));
    if (fault?.kind === 'reset' || fault?.kind === 'hang') {
      this.requests.push({ method, path: url.pathname, query: url.searchParams, status: 0 });
      if (fault.kind === 'reset') req.socket.destroy();
      return;
    }
    let reply: Reply;
    if (fault?.kind === 'status') {
      reply = {
        status: fault.status,
        ...(fault.retryAfter !== undefined ? { headers: { 'Retry-After': fault.retryAfter } } : {}),
        body: fault.body ?? '',
      };
    } else {
      try {
        reply = this.route(method, url, req.headers, body);
        if (fault?.kind === 'rewind') reply = this.rewound(reply, url, fault.by, fault.sameVersion === true);
      } catch (err) {
        reply = { status: 500, body: `fake server error: ${(err as Error).message}` };
      }
    }
    this.requests.push({ method, path: url.pathname, query: url.searchParams, status: reply.status });
    await send(res, reply, fault);
  }

  /** An index page whose objects are `by` versions older than they are (fault `rewind`). */
  private rewound(reply: Reply, url: URL, by: number, sameVersion: boolean): Reply {
    const page = reply.body as { index?: Array<{ id: string; v: number; d?: ObjectData }> } | undefined;
    if (reply.status !== 200 || !Array.isArray(page?.index)) return reply;
    const bucket = this.bucket(decodeURIComponent(url.pathname.split('/').filter(Boolean)[2] ?? 'note'));
    const index = page.index.map((entry) => {
      const older = entry.d ? bucket.get(entry.id, entry.v - by) : undefined;
      return older ? { ...entry, v: sameVersion ? entry.v : older.version, d: older.data } : entry;
    });
    return { ...reply, body: { ...page, index } };
  }

  private route(method: string, url: URL, headers: http.IncomingHttpHeaders, body: string): Reply {
    const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    const [version, app, bucketName, verb, id, v, n] = parts;
    if (version !== '1' || app !== this.appId) return { status: 404, body: 'not found' };
    if (bucketName === 'authorize' && parts.length === 3 && method === 'POST') return this.authorize(headers, body);
    const token = headers['x-simperium-token'];
    if (typeof token !== 'string' || !this.tokens.has(token)) return { status: 401, body: 'unauthorized' };
    if (!bucketName) return { status: 404, body: 'not found' };
    const q = lastWins(url.searchParams);
    if (verb === 'index' && parts.length === 4 && method === 'GET') return this.index(bucketName, q);
    if (verb !== 'i' || id === undefined || (parts.length !== 5 && (parts.length !== 7 || v !== 'v')))
      return { status: 404, body: 'not found' };
    const at = n === undefined ? undefined : Number(n);
    if (at !== undefined && !Number.isInteger(at)) return { status: 400, body: 'bad version' };
    if (method === 'GET') return this.read(bucketName, id, at);
    if (method === 'POST') return this.write(bucketName, id, at, q, body);
    if (method === 'DELETE') return this.remove(bucketName, id, at);
    return { status: 405, body: 'method not allowed' };
  }

  private authorize(headers: http.IncomingHttpHeaders, body: string): Reply {
    let fields: Record<string, unknown> = {};
    try {
      fields = JSON.parse(body) as Record<string, unknown>; // JSON whatever the Content-Type says
    } catch {
      fields = Object.fromEntries(new URLSearchParams(body)); // the legacy form-encoded variant
    }
    const key = headers['x-simperium-api-key'] ?? fields.client_id;
    if (key !== this.apiKey) return { status: 401, body: 'invalid api key' };
    const username = typeof fields.username === 'string' ? fields.username : '';
    if (this.users[username] === undefined || this.users[username] !== fields.password)
      return { status: 401, body: 'invalid login' };
    const accessToken = randomBytes(16).toString('hex');
    this.tokens.set(accessToken, username);
    return { status: 200, body: { username, access_token: accessToken, userid: randomBytes(16).toString('hex') } };
  }

  private index(bucketName: string, q: Map<string, string>): Reply {
    const bucket = this.bucket(bucketName);
    const limit = Math.min(1000, Math.max(1, Number.parseInt(q.get('limit') ?? '100', 10) || 100));
    const withData = q.get('data') === '1' || q.get('data') === 'true';
    const since = parseCv(q.get('since'));
    const mark = parseCv(q.get('mark'));
    const rows = bucket.index({
      ...(since !== undefined ? { after: since } : {}),
      ...(mark !== undefined ? { upTo: mark } : {}),
    });
    const page = rows.slice(0, limit);
    const next = rows[limit];
    return {
      status: 200,
      body: {
        current: cvString(bucket.current),
        index: page.map((row) => ({ id: row.id, v: row.v, ...(withData ? { d: row.d } : {}) })),
        // The mark is the cv of the first row of the next page: rows changed meanwhile move above it
        // and are left to the next `since` listing, which is exactly where a client looks for them.
        ...(next ? { mark: cvString(next.cv) } : {}),
      },
    };
  }

  private read(bucketName: string, id: string, version: number | undefined): Reply {
    const found = this.bucket(bucketName).get(id, version);
    if (!found) return { status: 404, body: 'not found' };
    return { status: 200, headers: { 'X-Simperium-Version': String(found.version) }, body: found.data };
  }

  private write(
    bucketName: string,
    id: string,
    version: number | undefined,
    q: Map<string, string>,
    body: string,
  ): Reply {
    const ccid = q.get('ccid');
    const replay = ccid !== undefined ? this.ccids.get(`${bucketName}/${ccid}`) : undefined;
    if (replay) return replay;
    let data: unknown;
    try {
      data = JSON.parse(body);
    } catch {
      return { status: 400, body: 'invalid json' };
    }
    if (typeof data !== 'object' || data === null || Array.isArray(data))
      return { status: 400, body: 'object expected' };
    if (!/^[a-zA-Z0-9._%@-]{1,256}$/.test(id)) return { status: 400, body: 'invalid id' };
    const bucket = this.bucket(bucketName);
    if (bucketName === 'note' && !bucket.get(id)) {
      const missing = NOTE_REQUIRED_FIELDS.filter((field) => !(field in (data as ObjectData)));
      if (missing.length) return { status: 400, body: `schema violation: missing ${missing.join(', ')}` };
    }
    const outcome = bucket.post(id, data as ObjectData, {
      replace: q.get('replace') === '1',
      ...(version !== undefined ? { baseVersion: version } : {}),
    });
    let reply: Reply;
    if (outcome.status === 'missing-version') reply = { status: 404, body: 'specified object version does not exist' };
    else if (outcome.status === 'unchanged') reply = { status: 412, body: 'empty change' };
    else {
      const wantBody = q.get('response') === '1' || q.get('response') === 'true';
      reply = {
        status: 200,
        headers: { 'X-Simperium-Version': String(outcome.version) },
        ...(wantBody ? { body: outcome.data } : {}),
      };
    }
    if (ccid !== undefined) this.ccids.set(`${bucketName}/${ccid}`, reply);
    return reply;
  }

  private remove(bucketName: string, id: string, version: number | undefined): Reply {
    const bucket = this.bucket(bucketName);
    const found = bucket.get(id);
    if (!found) return { status: 404, body: 'not found' };
    if (version !== undefined && version !== found.version) return { status: 412, body: 'version mismatch' };
    if (bucketName === 'note' && found.data.deleted !== true && found.data.deleted !== 1)
      return { status: 400, body: 'note must be trashed before it is deleted' };
    const deletedAt = bucket.delete(id)!;
    return { status: 200, headers: { 'X-Simperium-Version': String(deletedAt) } };
  }
}

/** Repeated query parameters: the last occurrence counts (simplenote.py accumulates `mark`s). */
function lastWins(params: URLSearchParams): Map<string, string> {
  const map = new Map<string, string>();
  for (const [key, value] of params) map.set(key, value);
  return map;
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

async function send(res: http.ServerResponse, reply: Reply, fault: Fault | undefined): Promise<void> {
  if (fault?.kind === 'delay') await new Promise((resolve) => setTimeout(resolve, fault.ms));
  if (res.destroyed) return;
  if (fault?.kind === 'huge') return sendHuge(res, fault.bytes);
  const isText = typeof reply.body === 'string';
  const payload =
    reply.body === undefined
      ? Buffer.alloc(0)
      : Buffer.from(isText ? (reply.body as string) : JSON.stringify(reply.body));
  const headers: Record<string, string | number> = { ...reply.headers, 'Content-Length': payload.length };
  if (reply.body !== undefined) headers['Content-Type'] = isText ? 'text/plain; charset=utf-8' : 'application/json';
  res.writeHead(reply.status, headers);
  if (fault?.kind === 'drop') {
    // Half the body, then the connection dies: the client sees a truncated response.
    res.write(payload.subarray(0, Math.floor(payload.length / 2)), () => res.socket?.destroy());
    return;
  }
  if (fault?.kind === 'drip') return drip(res, payload, fault.everyMs);
  res.end(payload);
}

/** One byte every `everyMs` until the body is out or the client goes away. */
async function drip(res: http.ServerResponse, payload: Buffer, everyMs: number): Promise<void> {
  for (let at = 0; at < payload.length && !res.destroyed; at += 1) {
    res.write(payload.subarray(at, at + 1));
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
  if (!res.destroyed) res.end();
}

/** A 200 whose JSON body (`{"current":"…","index":[],"pad":"xxxx…"}`) is `bytes` long, written from one 64 KiB chunk as the socket drains. */
async function sendHuge(res: http.ServerResponse, bytes: number): Promise<void> {
  const head = Buffer.from('{"current":"0","index":[],"pad":"');
  const tail = Buffer.from('"}');
  const chunk = Buffer.alloc(64 * 1024, 'x');
  res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': bytes, 'X-Simperium-Version': '1' });
  let left = bytes - head.length - tail.length;
  const write = (part: Buffer) =>
    res.write(part)
      ? Promise.resolve()
      : new Promise<void>((resolve) => {
          const done = () => (res.off('drain', done), res.off('close', done), resolve());
          res.on('drain', done).on('close', done);
        });
  await write(head);
  while (left > 0 && !res.destroyed) {
    const part = left >= chunk.length ? chunk : chunk.subarray(0, left);
    left -= part.length;
    await write(part);
  }
  if (!res.destroyed) res.end(tail);
}
