/**
 * MCP over HTTP: Streamable HTTP on `/mcp`, and the legacy HTTP+SSE transport on `/sse` +
 * `/messages` for older clients (see legacy-sse.ts). Bound to 127.0.0.1 unless told otherwise;
 * anywhere else a bearer token is required. Host, Origin and token are checked on every request
 * (http-guard.ts), and every POST body is read here under the message limit.
 *
 * Both protocol eras share `/mcp`, told apart per request (decision 049):
 * - 2026-07-28 (a request carrying its `_meta` envelope): stateless, one MCP instance per request
 *   from the SDK's handler; note changes reach `subscriptions/listen` streams through it.
 * - 2025-03-26 to 2025-11-25 (`initialize`, then `Mcp-Session-Id`): the session those revisions
 *   define, which carries their GET stream and resource subscriptions. Sessions expire when idle
 *   and are capped (http-sessions.ts); no answer depends on which session asked.
 */
import { randomUUID } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NodeStreamableHTTPServerTransport, toNodeHandler, toWebRequest } from '@modelcontextprotocol/node';
import {
  createMcpHandler,
  isInitializeRequest,
  isLegacyRequest,
  ProtocolErrorCode as ErrorCode,
} from '@modelcontextprotocol/server';
import { ConfigError } from '../../kernel/errors.js';
import type { ToolHost } from '../tool-host.js';
import { checkToken, createGuard } from './http-guard.js';
import { SessionTable } from './http-sessions.js';
import { InFlight, DRAIN_TIMEOUT_MS } from './in-flight.js';
import { handleLegacySse } from './legacy-sse.js';
import { DEFAULT_MESSAGE_BYTES, tooLargeMessage } from '../../kernel/message-limit.js';
import { ResourceChanges } from './resource-changes.js';
import { createMcpServer } from './server.js';
import { vaultSkills } from './skills/index.js';
import { MESSAGE_TOO_LARGE } from './stdio-transport.js';
import { BATCH_REFUSED, checkMessage, errorReply, type JsonRpcErrorReply } from './jsonrpc-check.js';

export { isLoopback } from './http-guard.js';

export interface HttpOptions {
  host?: string;
  port?: number;
  token?: string;
  /** Browser origins allowed in (none by default); requests without Origin are not browsers'. */
  allowedOrigins?: string[];
  /** Host names this server answers to besides its bound address (e.g. a reverse proxy's). */
  allowedHosts?: string[];
  /** Close a session after this long without a request (default 15 minutes). */
  sessionIdleMs?: number;
  /** Most sessions open at once; the longest-idle one makes room (default 100). */
  maxSessions?: number;
  /** The message limit (decision 028): a bigger request body is refused with 413. */
  maxMessageBytes?: number;
}

export interface HttpHandle {
  url: string;
  /** Stops taking requests, answers the calls in flight (bounded), then closes every session. */
  close(): Promise<void>;
}

/** Session not found: the client must initialize again (Streamable HTTP, § Session Management). */
const SESSION_NOT_FOUND = -32001;

export async function serveHttp(vault: ToolHost, options: HttpOptions = {}): Promise<HttpHandle> {
  const host = options.host ?? '127.0.0.1';
  checkToken(options.token, host);
  const sessions = new SessionTable(vault.logger, options.sessionIdleMs, options.maxSessions);
  const inFlight = new InFlight();
  const limit = options.maxMessageBytes ?? DEFAULT_MESSAGE_BYTES;
  const changes = new ResourceChanges(vault);
  const skills = vaultSkills(vault);
  const createServer = () => createMcpServer(vault, { inFlight, maxMessageBytes: limit, changes, skills });
  const modernServer = () =>
    createMcpServer(vault, { inFlight, maxMessageBytes: limit, era: 'modern', changes, skills, perRequest: true });
  const modern = createMcpHandler(modernServer, {
    legacy: 'reject',
    onerror: (err) => vault.logger.debug({ err: err.message }, 'a 2026-07-28 request was refused'),
  });
  const serveModern = toNodeHandler(modern, {
    onerror: (err) => vault.logger.error({ err }, 'a 2026-07-28 request failed'),
  });
  changes.subscribe((uris) => {
    for (const uri of uris) modern.notify.resourceUpdated(uri);
  });
  changes.onListChanged(() => modern.notify.resourcesChanged());
  let closing = false;

  /** A POST's JSON body, read here so one limit holds on /mcp and /messages; undefined once refused. */
  const bodyOf = async (req: IncomingMessage, res: ServerResponse): Promise<{ body: unknown } | undefined> => {
    const read = await readJson(req, limit);
    if (read.kind === 'too_large') {
      // The rest of the body is read and dropped (not kept) before the answer: a fetch() client
      // answered while still sending sees only "fetch failed", not the 413 and its sentence.
      await drained(req);
      res.setHeader('connection', 'close');
      replyError(res, 413, MESSAGE_TOO_LARGE, tooLargeMessage('The request body', read.bytes, limit), {
        error: 'too_large',
        bytes: read.bytes,
        limit,
      });
      return undefined;
    }
    if (read.kind === 'bad_json') {
      replyError(res, 400, -32700, 'Parse error: the body is not JSON.');
      return undefined;
    }
    const refusal = refusalOf(read.body, req);
    if (refusal) {
      vault.logger.warn({ err: refusal.error.message }, 'a message from the client could not be taken');
      // Bad params are the request's answer (200, as the server would give it, in both eras); a
      // message that is no request at all is the HTTP exchange's failure (400).
      res.writeHead(refusal.error.code === ErrorCode.InvalidParams ? 200 : 400, { 'content-type': 'application/json' });
      res.end(JSON.stringify(refusal));
      return undefined;
    }
    return { body: read.body };
  };

  const handleMcp = async (req: IncomingMessage, res: ServerResponse) => {
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const session = sessions.get<NodeStreamableHTTPServerTransport>(sessionId);
      if (!session || !(session.transport instanceof NodeStreamableHTTPServerTransport)) {
        return replyError(
          res,
          404,
          SESSION_NOT_FOUND,
          'Session not found (unknown, expired or closed); send initialize again without a session id.',
        );
      }
      sessions.track(session, (done) => res.once('close', done));
      if (req.method !== 'POST') return session.transport.handleRequest(req, res);
      const read = await bodyOf(req, res);
      return read && session.transport.handleRequest(req, res, read.body);
    }
    if (req.method !== 'POST') {
      // 2026-07-28 has no GET stream or DELETE: the SDK's handler answers what the revision says.
      if (req.headers['mcp-protocol-version'] && !(await isLegacyRequest(await toWebRequest(req))))
        return serveModern(req, res);
      return replyError(
        res,
        400,
        -32000,
        'Bad request: an Mcp-Session-Id header is required; initialize first with POST.',
      );
    }
    const read = await bodyOf(req, res);
    if (!read) return;
    const body = read.body;
    if (!(await isLegacyRequest(await toWebRequest(req, body), body))) return serveModern(req, res, body);
    if (!isInitializeRequest(body))
      return replyError(
        res,
        400,
        -32000,
        'Bad request: an Mcp-Session-Id header is required; the first request must be initialize.',
      );
    if (!sessions.makeRoom()) return replyError(res, 503, -32000, 'Too many sessions are busy; retry shortly.');
    const server = createServer();
    const transport: NodeStreamableHTTPServerTransport = new NodeStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id): void => sessions.add(id, transport, server),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.forget(transport.sessionId);
    };
    await server.connect(transport);
    try {
      await transport.handleRequest(req, res, body);
    } finally {
      // An initialize the transport refused (406, 415) opened no session: nothing else would close its server.
      if (!transport.sessionId || !sessions.get(transport.sessionId)) await server.close();
    }
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path !== '/mcp' && path !== '/sse' && path !== '/messages') {
      return replyError(res, 404, -32000, 'Not found: MCP is served on /mcp (and the legacy SSE transport on /sse).');
    }
    const refusal = guard ? guard(req) : { status: 503, message: 'The server is starting.' };
    if (refusal) {
      if (refusal.status === 401) res.setHeader('WWW-Authenticate', 'Bearer');
      return replyError(res, refusal.status, -32000, refusal.message);
    }
    if (closing) return replyError(res, 503, -32000, 'The server is shutting down.');
    if (path === '/mcp') return handleMcp(req, res);
    return handleLegacySse(req, res, { path, sessions, createServer, replyError, readBody: bodyOf });
  };

  // Built once the port is known (an Origin naming this server must name its port).
  let guard: ReturnType<typeof createGuard> | undefined;
  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      vault.logger.error({ err }, 'http request failed');
      if (!res.headersSent) replyError(res, 500, -32603, 'Internal error; the server log has the details.');
    });
  });
  await listen(server, options.port ?? 0, host);
  const address = server.address() as AddressInfo;
  guard = createGuard({ ...options, host, port: address.port });
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${shownHost}:${address.port}/mcp`;
  vault.logger.info({ url, auth: options.token ? 'bearer' : 'none (loopback)' }, 'serving MCP over Streamable HTTP');
  return {
    url,
    async close() {
      closing = true;
      const started = Date.now();
      const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
      const settled = await inFlight.drain(DRAIN_TIMEOUT_MS);
      if (!settled) vault.logger.warn({ inFlight: inFlight.size }, 'calls still running at shutdown were abandoned');
      // The answers of the calls that just finished are written a few promise turns later.
      await new Promise((resolve) => setImmediate(resolve));
      await sessions.closeAll();
      await modern.close();
      changes.close();
      server.closeAllConnections();
      await stopped;
      vault.logger.info({ ms: Date.now() - started }, 'HTTP server closed');
    },
  };
}

/** A port in use is a usage error with one clear line, not a stack trace. */
async function listen(server: http.Server, port: number, host: string): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE')
        reject(
          new ConfigError(`Port ${port} on ${host} is already in use; pick another with --port (0 picks a free one).`, {
            key: 'http.port',
          }),
        );
      else if (err.code === 'EADDRNOTAVAIL')
        reject(new ConfigError(`Cannot bind to ${host}: no such address on this machine.`, { key: 'http.host' }));
      else reject(err);
    });
    server.listen(port, host, () => resolve());
  });
}

type BodyRead = { kind: 'ok'; body: unknown } | { kind: 'too_large'; bytes: number } | { kind: 'bad_json' };

/**
 * Reads a JSON body of at most `limit` bytes. A declared Content-Length above it is refused
 * before a byte is read; a body that only turns out too big is refused once it passes the limit.
 */
function readJson(req: IncomingMessage, limit: number): Promise<BodyRead> {
  const declared = Number(req.headers['content-length'] ?? NaN);
  if (declared > limit) return Promise.resolve({ kind: 'too_large', bytes: declared });
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      // Not an error of the stream: the rest is drained (see bodyOf), the answer goes out now.
      req.off('data', onData);
      chunks.length = 0;
      resolve({ kind: 'too_large', bytes: size });
    };
    req.on('data', onData);
    req.once('error', reject);
    req.once('end', () => {
      if (size > limit) return;
      try {
        resolve({ kind: 'ok', body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown });
      } catch {
        resolve({ kind: 'bad_json' });
      }
    });
  });
}

function drained(req: IncomingMessage): Promise<void> {
  if (req.readableEnded || req.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    req.once('end', resolve);
    req.once('close', resolve);
    req.resume();
  });
}

/**
 * The JSON-RPC error a POST body is owed instead of being served, as on stdio (jsonrpc-check.ts);
 * the SDK would answer a bad id or member with -32700 "Parse error" although the JSON parsed.
 * A batch is taken only where the protocol still had them: Streamable HTTP before MCP 2025-06-18
 * (a request without MCP-Protocol-Version is 2025-03-26, per the specification); each of its
 * messages is checked the same way.
 */
function refusalOf(body: unknown, req: IncomingMessage): JsonRpcErrorReply | undefined {
  if (Array.isArray(body)) {
    const version = req.headers['mcp-protocol-version'];
    const batching = req.url?.startsWith('/mcp') && (typeof version !== 'string' || version < '2025-06-18');
    if (!batching)
      return errorReply(null, ErrorCode.InvalidRequest, BATCH_REFUSED, {
        error: 'batch_not_supported',
        messages: body.length,
      });
    return body.map(refusalOfOne).find((refusal) => refusal !== undefined);
  }
  return refusalOfOne(body);
}

function refusalOfOne(message: unknown): JsonRpcErrorReply | undefined {
  const checked = checkMessage(message);
  if (checked.ok) return undefined;
  // A malformed response is owed nothing on stdio; an HTTP POST is owed a status all the same.
  return checked.reply ?? errorReply(null, ErrorCode.InvalidRequest, checked.reason);
}

/** Every refusal is a JSON-RPC error body, so MCP clients can read it. */
export function replyError(
  res: ServerResponse,
  status: number,
  code: number,
  message: string,
  data?: Record<string, unknown>,
): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message, ...(data ? { data } : {}) } }));
}
