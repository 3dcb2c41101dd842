/**
 * MCP over Streamable HTTP on `/mcp`. Bound to 127.0.0.1 unless told otherwise; anywhere else
 * a bearer token is required. Browsers' cross-site requests are refused by checking Origin,
 * which stops DNS-rebinding pages from reaching a loopback server.
 */
import { randomUUID, timingSafeEqual } from 'node:crypto';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { ConfigError } from '../../kernel/errors.js';
import type { ToolHost } from '../../kernel/tool-host.js';
import { createMcpServer } from './server.js';

export interface HttpOptions {
  host?: string;
  port?: number;
  token?: string;
  allowedOrigins?: string[];
}

export interface HttpHandle {
  url: string;
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1', '[::1]']);

export function isLoopback(host: string): boolean {
  return LOOPBACK.has(host) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

export async function serveHttp(vault: ToolHost, options: HttpOptions = {}): Promise<HttpHandle> {
  const host = options.host ?? '127.0.0.1';
  if (!isLoopback(host) && !options.token) {
    throw new ConfigError(`Refusing to serve on ${host} without a bearer token: pass --token or set NOTEKERNEL_HTTP_TOKEN.`, { key: 'http.token' });
  }
  const sessions = new Map<string, StreamableHTTPServerTransport>();

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== '/mcp') return reply(res, 404, { error: 'not_found', message: 'MCP is served on /mcp' });
    const originProblem = checkOrigin(req.headers.origin, options.allowedOrigins);
    if (originProblem) return reply(res, 403, { error: 'forbidden', message: originProblem });
    if (options.token && !bearerMatches(req.headers.authorization, options.token)) {
      res.setHeader('WWW-Authenticate', 'Bearer');
      return reply(res, 401, { error: 'unauthorized', message: 'A valid bearer token is required.' });
    }

    const sessionId = req.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (existing) return existing.handleRequest(req, res);
    if (req.method !== 'POST') return reply(res, 400, { error: 'bad_request', message: 'No valid session; initialize first with POST.' });

    const body = await readJson(req);
    if (body === undefined || !isInitializeRequest(body)) {
      return reply(res, 400, { error: 'bad_request', message: 'No valid session; the first request must be initialize.' });
    }
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, transport);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await createMcpServer(vault).connect(transport);
    await transport.handleRequest(req, res, body);
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      vault.logger.error({ err }, 'http request failed');
      if (!res.headersSent) reply(res, 500, { error: 'internal', message: 'internal error' });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${shownHost}:${address.port}/mcp`;
  vault.logger.info({ url, auth: options.token ? 'bearer' : 'none (loopback)' }, 'serving MCP over Streamable HTTP');
  return {
    url,
    async close() {
      for (const transport of sessions.values()) await transport.close();
      sessions.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** No Origin (non-browser clients) passes; a browser Origin must be loopback or allowed. */
function checkOrigin(origin: string | undefined, allowed: string[] = []): string | undefined {
  if (!origin) return undefined;
  if (allowed.includes(origin)) return undefined;
  try {
    const parsed = new URL(origin);
    if (isLoopback(parsed.hostname)) return undefined;
  } catch {
    return `Origin "${origin}" is not a valid origin.`;
  }
  return `Origin "${origin}" is not allowed; add it to http.allowedOrigins in the config.`;
}

function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(.+)$/i.exec(header ?? '');
  if (!match?.[1]) return false;
  const given = Buffer.from(match[1]);
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > 4 * 1024 * 1024) return undefined;
    chunks.push(chunk as Buffer);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return undefined;
  }
}

function reply(res: ServerResponse, status: number, body: Record<string, unknown>): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
