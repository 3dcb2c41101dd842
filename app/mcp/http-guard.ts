/**
 * Who may talk to the HTTP server, checked before any MCP handling:
 * - Host must name this server (its bound address, loopback names when bound to loopback, the
 *   machine's addresses when bound to all interfaces, or a configured name): a DNS-rebinding
 *   page reaches a loopback server under its own host name, and is refused here.
 * - Origin, which only browsers send, must be one configured (none by default) or this server's
 *   own (a page it served; a rebinding page's origin carries the foreign name, refused above).
 * - The bearer token, when set, is compared as fixed-length digests in constant time.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import os from 'node:os';
import { ConfigError } from '../../kernel/errors.js';

export const MIN_TOKEN_LENGTH = 16;

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

export function isLoopback(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  return LOOPBACK.has(bare) || /^127\.\d+\.\d+\.\d+$/.test(bare);
}

/** The one token rule, whichever way the token came (flag, environment, config file). */
export function checkToken(token: string | undefined, host: string): void {
  if (token !== undefined && token.length < MIN_TOKEN_LENGTH) {
    throw new ConfigError(
      `The HTTP bearer token must have at least ${MIN_TOKEN_LENGTH} characters (got ${token.length}).`,
      { key: 'http.token' },
    );
  }
  if (!isLoopback(host) && !token) {
    throw new ConfigError(
      `Refusing to serve on ${host} without a bearer token: pass --token or set NOTEKERNEL_HTTP_TOKEN.`,
      { key: 'http.token' },
    );
  }
}

export interface GuardOptions {
  host: string;
  /** The port the server listens on: an Origin naming this server must name this port too. */
  port: number;
  token?: string;
  allowedOrigins?: string[];
  allowedHosts?: string[];
}

export interface Refusal {
  status: number;
  message: string;
}

export function createGuard(options: GuardOptions): (req: IncomingMessage) => Refusal | undefined {
  const hosts = allowedHostNames(options.host, options.allowedHosts ?? []);
  const origins = new Set(options.allowedOrigins ?? []);
  const tokenDigest = options.token ? digest(options.token) : undefined;
  return (req) => {
    const hostname = hostnameOf(req.headers.host);
    if (!hostname || !hosts.has(hostname)) {
      return {
        status: 403,
        message: `Host "${req.headers.host ?? ''}" is not this server; add it to http.allowedHosts in the config.`,
      };
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !origins.has(origin) && !isOwnOrigin(origin, hosts, options.port)) {
      return {
        status: 403,
        message: `Origin "${origin}" is not allowed; add it to http.allowedOrigins in the config.`,
      };
    }
    if (tokenDigest && !bearerMatches(req.headers.authorization, tokenDigest)) {
      return { status: 401, message: 'A valid bearer token is required.' };
    }
    return undefined;
  };
}

function isOwnOrigin(origin: string, hosts: Set<string>, port: number): boolean {
  try {
    const url = new URL(origin);
    const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1').toLowerCase();
    return url.protocol === 'http:' && Number(url.port || 80) === port && hosts.has(hostname);
  } catch {
    return false;
  }
}

function allowedHostNames(bound: string, configured: string[]): Set<string> {
  const names = new Set<string>([bound.replace(/^\[(.*)\]$/, '$1').toLowerCase()]);
  if (isLoopback(bound)) for (const name of LOOPBACK) names.add(name);
  if (bound === '0.0.0.0' || bound === '::') {
    for (const name of LOOPBACK) names.add(name);
    names.add(os.hostname().toLowerCase());
    for (const list of Object.values(os.networkInterfaces()))
      for (const address of list ?? []) names.add(address.address.toLowerCase());
  }
  for (const name of configured) names.add(hostnameOf(name) ?? name.toLowerCase());
  return names;
}

/** "example.com:8080" → "example.com", "[::1]:80" → "::1". */
function hostnameOf(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^\[([^\]]+)\](?::\d+)?$/.exec(header) ?? /^([^:]+)(?::\d+)?$/.exec(header);
  return match?.[1]?.toLowerCase();
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

/** Digests have one length whatever the token's, so the compare tells nothing about it. */
function bearerMatches(header: string | undefined, expected: Buffer): boolean {
  const match = /^Bearer\s+(.+)$/i.exec(header ?? '');
  return timingSafeEqual(digest(match?.[1] ?? ''), expected);
}
