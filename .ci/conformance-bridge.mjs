#!/usr/bin/env node
/**
 * A Streamable HTTP front for one `notekernel serve` on stdio, speaking MCP 2026-07-28, so the
 * conformance suite (HTTP only) tests our stdio server. supergateway speaks the 2025 era only.
 *
 * Every JSON-RPC answer the suite reads comes from the child: each POSTed message is written to
 * its stdin as one line, and what answers it on stdout (the result or error, and the
 * notifications for that request: progress by its token, a listen stream's by its subscription
 * id) goes back on that POST, as JSON or, once a notification precedes the answer, as SSE.
 * Ids are rewritten to ids of the bridge's own (many HTTP clients share one stdio connection)
 * and restored on the way back; an id no client could match (1.5, 2^64, an object) is passed
 * through unchanged, so the child's refusal of it, with id null, is what the suite sees.
 *
 * What the bridge decides itself, because stdio has no counterpart (decision 017): the Host
 * check, GET/DELETE (405), the Content-Type (415), the MCP-Protocol-Version / Mcp-Method /
 * Mcp-Name header cross-checks (400, -32020, by the SDK's classifyInboundRequest), and the HTTP
 * status of an error: the classifier's status when it refuses the request, else the status the
 * 2026-07-28 HTTP binding gives the child's error code. When the classifier refuses a request the
 * child answered with a result, the result goes out with 200 and a warning, so the suite sees the
 * child accept what it should have refused.
 *
 * Usage: node .ci/conformance-bridge.mjs --port <port> -- <command> [args...]
 * Prints "bridge on http://127.0.0.1:<port>/mcp" on stderr once the child answered server/discover.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import { createInterface } from 'node:readline';
import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  classifyInboundRequest,
  PROTOCOL_VERSION_META_KEY,
  SUBSCRIPTION_ID_META_KEY,
} from '@modelcontextprotocol/server';
import pino from 'pino';

const log = pino({ name: 'conformance-bridge', level: process.env.BRIDGE_LOG_LEVEL ?? 'info' }, pino.destination(2));
const REVISION = '2026-07-28';
/** The 2026-07-28 HTTP binding's status for an error raised before a handler runs; others are 200. */
const STATUS_OF_CODE = new Map([
  [-32700, 400],
  [-32600, 400],
  [-32601, 404],
  [-32020, 400],
  [-32021, 400],
  [-32022, 400],
]);
const HEADER_MISMATCH = -32020;
/** How long a message passed through unchanged may wait for the child's answer. */
const RAW_ANSWER_MS = 5000;

const args = process.argv.slice(2);
const dashes = args.indexOf('--');
const portAt = args.indexOf('--port');
if (dashes === -1 || portAt === -1 || dashes < portAt) {
  process.stderr.write('usage: conformance-bridge.mjs --port <port> -- <command> [args...]\n');
  process.exit(2);
}
const port = Number(args[portAt + 1]);
const [command, ...commandArgs] = args.slice(dashes + 1);

const child = spawn(command, commandArgs, { stdio: ['pipe', 'pipe', 'inherit'] });
let stopping = false;
// A child gone mid-write is told by its exit below, not by a crash of the bridge.
child.stdin.on('error', (err) => log.warn({ err: err.message }, 'could not write to the stdio server'));
child.on('exit', (code, signal) => {
  if (stopping) process.exit(0);
  log.error({ code, signal }, 'the stdio server exited');
  for (const entry of pending.values())
    answer(entry, 502, errorBody(entry.clientId, -32603, 'The stdio server exited.'));
  process.exit(1);
});
// Stopped: the child's stdin closes, as a stdio client hanging up, and the child drains and exits.
process.on('SIGTERM', () => {
  stopping = true;
  child.stdin.end();
  setTimeout(() => child.kill('SIGTERM'), 2000).unref();
});

/** Requests sent to the child and not yet answered, by the id the child sees (JSON-encoded). */
const pending = new Map();
/** Entries passed through with an id the child answers as null, oldest first. */
const rawQueue = [];
let nextId = 0;

const keyOf = (id) => JSON.stringify(id);
const usableId = (id) => typeof id === 'string' || Number.isSafeInteger(id);
const errorBody = (id, code, message, data) => ({
  jsonrpc: '2.0',
  id: id ?? null,
  error: { code, message, ...(data !== undefined ? { data } : {}) },
});
const sendToChild = (message) => child.stdin.write(`${JSON.stringify(message)}\n`);

function answer(entry, status, body) {
  pending.delete(entry.wireKey);
  const raw = rawQueue.indexOf(entry);
  if (raw !== -1) rawQueue.splice(raw, 1);
  clearTimeout(entry.timer);
  if (entry.res.writableEnded) return;
  if (entry.sse) {
    entry.res.end(`event: message\ndata: ${JSON.stringify(body)}\n\n`);
    return;
  }
  entry.res.writeHead(status, { 'content-type': 'application/json' });
  entry.res.end(JSON.stringify(body));
}

function streamTo(entry, message) {
  if (entry.res.writableEnded) return;
  if (!entry.sse) {
    entry.sse = true;
    entry.res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  }
  entry.res.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
}

function fromChild(message) {
  if (message.id !== undefined && message.method === undefined) {
    const entry = message.id === null ? rawQueue[0] : pending.get(keyOf(message.id));
    if (!entry) return log.warn({ id: message.id }, 'an answer matched no open request; dropped');
    const body = { ...message, id: message.id === null ? null : entry.clientId };
    if (message.error) {
      const status = entry.refusal?.httpStatus ?? STATUS_OF_CODE.get(message.error.code) ?? 200;
      return answer(entry, status, body);
    }
    if (entry.refusal)
      log.warn({ cell: entry.refusal.cell, method: entry.method }, 'the stdio server answered a request HTTP refuses');
    return answer(entry, 200, body);
  }
  const meta = message.params?._meta;
  const subscription = meta?.[SUBSCRIPTION_ID_META_KEY];
  if (subscription !== undefined) {
    const entry = pending.get(keyOf(subscription));
    if (!entry) return log.debug({ method: message.method }, 'a notification for a closed listen stream; dropped');
    return streamTo(entry, {
      ...message,
      params: { ...message.params, _meta: { ...meta, [SUBSCRIPTION_ID_META_KEY]: entry.clientId } },
    });
  }
  const token = message.method === 'notifications/progress' ? message.params?.progressToken : undefined;
  const byToken = token === undefined ? undefined : [...pending.values()].find((e) => e.progressToken === token);
  if (byToken) return streamTo(byToken, message);
  // A log line or a request to the client names no request on stdio: it belongs to the one running call, if only one runs.
  const calls = [...pending.values()].filter((e) => e.method !== 'subscriptions/listen');
  if (calls.length === 1) return streamTo(calls[0], message);
  log.warn({ method: message.method, open: calls.length }, 'a message from the stdio server names no request; dropped');
}

createInterface({ input: child.stdout }).on('line', (line) => {
  if (line.trim() === '') return;
  try {
    fromChild(JSON.parse(line));
  } catch (err) {
    log.error({ err, line: line.slice(0, 200) }, 'the stdio server wrote a line that is not JSON-RPC');
  }
});

function reply(res, status, body, headers = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** Host must name this bridge: a loopback listener reached under a foreign name is DNS rebinding. */
function hostAllowed(host) {
  if (!host) return false;
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0];
  return ['127.0.0.1', 'localhost', '[::1]'].includes(name.toLowerCase());
}

async function readBody(req) {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

async function handle(req, res) {
  if (new URL(req.url ?? '/', 'http://bridge').pathname !== '/mcp')
    return reply(res, 404, errorBody(null, -32000, 'Not found: MCP is on /mcp.'));
  if (!hostAllowed(req.headers.host))
    return reply(res, 403, errorBody(null, -32000, `Forbidden: Host ${req.headers.host} does not name this server.`));
  if (req.method !== 'POST') return reply(res, 405, errorBody(null, -32000, 'Method not allowed.'), { allow: 'POST' });
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (type !== 'application/json')
    return reply(res, 415, errorBody(null, -32000, 'Unsupported Media Type: the body must be application/json.'));
  const text = await readBody(req);
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: the child would answer -32700 with id null, which names no POST to carry it back on.
    return reply(res, 400, errorBody(null, -32700, 'Parse error: the body is not JSON.'));
  }
  const outcome = classifyInboundRequest({
    httpMethod: 'POST',
    protocolVersionHeader: req.headers['mcp-protocol-version'],
    mcpMethodHeader: req.headers['mcp-method'],
    mcpNameHeader: req.headers['mcp-name'],
    body,
  });
  const refusal = outcome.kind === 'reject' ? outcome : standardHeaderRefusal(req.headers, outcome);
  // Headers are HTTP's alone: a refusal of theirs is the bridge's to answer.
  if (refusal?.code === HEADER_MISMATCH)
    return reply(res, refusal.httpStatus, errorBody(body?.id, refusal.code, refusal.message, refusal.data));
  const isObject = body !== null && typeof body === 'object' && !Array.isArray(body);
  if (isObject && body.method === undefined && ('result' in body || 'error' in body)) {
    // A posted response: stdio answers none, and the 2026-07-28 endpoint refuses it.
    return reply(
      res,
      400,
      errorBody(null, -32600, 'Bad Request: JSON-RPC responses cannot be posted to this endpoint.'),
    );
  }
  if (isObject && typeof body.method === 'string' && body.id === undefined) {
    // A notification is owed no answer on stdio: HTTP's is 202, or the edge's refusal.
    sendToChild(rewriteCancel(body));
    if (refusal) return reply(res, refusal.httpStatus, errorBody(null, refusal.code, refusal.message, refusal.data));
    res.writeHead(202).end();
    return;
  }
  const entry = {
    res,
    refusal,
    clientId: isObject ? body.id : null,
    method: isObject ? body.method : undefined,
    progressToken: isObject ? body.params?._meta?.progressToken : undefined,
    sse: false,
  };
  let message = body;
  if (isObject && typeof body.method === 'string' && usableId(body.id)) {
    const wireId = `bridge-${nextId++}`;
    entry.wireKey = keyOf(wireId);
    message = { ...body, id: wireId };
  } else {
    // Passed through: the child answers with this id, or null when no client could match it.
    entry.wireKey = isObject && body.id !== undefined ? keyOf(body.id) : `raw-${nextId++}`;
    rawQueue.push(entry);
    entry.timer = setTimeout(
      () => answer(entry, 502, errorBody(null, -32603, 'The stdio server sent no answer to this message.')),
      RAW_ANSWER_MS,
    );
  }
  pending.set(entry.wireKey, entry);
  res.on('close', () => {
    if (!pending.has(entry.wireKey)) return;
    pending.delete(entry.wireKey);
    clearTimeout(entry.timer);
    // The client went away: the child stops the call (a listen stream closes) as it would for a stdio client.
    if (entry.wireKey.startsWith('"bridge-'))
      sendToChild({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: JSON.parse(entry.wireKey), _meta: body.params?._meta },
      });
  });
  sendToChild(message);
}

/** Where Mcp-Name comes from in the body (SEP-2243), by method. */
const NAME_SOURCE = { 'tools/call': 'name', 'prompts/get': 'name', 'resources/read': 'uri' };
const BASE64_NAME = /^=\?base64\?((?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?)\?=$/;

/**
 * SEP-2243's standard headers on a 2026-07-28 request: MCP-Protocol-Version and Mcp-Method must
 * be sent, and Mcp-Name whenever the body names a tool, prompt or resource, matching it (plain or
 * as =?base64?...?=). The SDK's HTTP entry checks this after classifyInboundRequest, in a step it
 * does not export; mismatches the classifier itself sees (a version or method that differs) it
 * refuses already.
 */
function standardHeaderRefusal(headers, outcome) {
  if (outcome.kind !== 'modern' || outcome.messageKind !== 'request') return undefined;
  const refuse = (cell, header, body) => ({
    kind: 'reject',
    cell,
    httpStatus: 400,
    code: HEADER_MISMATCH,
    message: `Bad Request: the request headers and body disagree: ${body}`,
    data: { mismatch: { header, body } },
  });
  const { method, params } = outcome.message;
  if (headers['mcp-protocol-version'] === undefined)
    return refuse('version-header-missing', '(missing)', 'the required MCP-Protocol-Version header is absent');
  if (headers['mcp-method'] === undefined)
    return refuse('method-header-missing', '(missing)', `the body names method ${method} but Mcp-Method is absent`);
  const field = NAME_SOURCE[method];
  const value = field === undefined ? undefined : params?.[field];
  if (typeof value !== 'string') return undefined;
  const header = headers['mcp-name']?.trim();
  if (header === undefined)
    return refuse(
      'name-header-missing',
      '(missing)',
      `the body carries params.${field}="${value}" but Mcp-Name is absent`,
    );
  const encoded = header.startsWith('=?base64?') ? BASE64_NAME.exec(header) : undefined;
  if (encoded === null)
    return refuse('name-header-invalid-encoding', header, 'Mcp-Name carries an invalid Base64 value');
  const named = encoded ? Buffer.from(encoded[1], 'base64').toString('utf8') : header;
  if (named !== value) return refuse('name-header-mismatch', header, `the body carries params.${field}="${value}"`);
  return undefined;
}

/** A client's notifications/cancelled names its own id; the child knows the request by the bridge's. */
function rewriteCancel(notification) {
  if (notification.method !== 'notifications/cancelled') return notification;
  const wanted = notification.params?.requestId;
  const entry = [...pending.values()].find((e) => e.clientId === wanted && e.wireKey.startsWith('"bridge-'));
  if (!entry) return notification;
  return { ...notification, params: { ...notification.params, requestId: JSON.parse(entry.wireKey) } };
}

/** A request of the bridge's own, answered to it rather than to an HTTP client. */
function ask(method) {
  const id = `bridge-${nextId++}`;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer to ${method} within 30 s`)), 30_000);
    const done = (json) => {
      clearTimeout(timer);
      resolve(JSON.parse(json));
    };
    pending.set(keyOf(id), {
      wireKey: keyOf(id),
      clientId: id,
      res: { writableEnded: false, writeHead() {}, end: done },
    });
    const _meta = {
      [PROTOCOL_VERSION_META_KEY]: REVISION,
      [CLIENT_CAPABILITIES_META_KEY]: {},
      [CLIENT_INFO_META_KEY]: { name: 'notekernel-conformance-bridge', version: '1.0.0' },
    };
    sendToChild({ jsonrpc: '2.0', id, method, params: { _meta } });
  });
}

// The connection's era is pinned by its first request other than server/discover (the SDK's
// serveStdio takes discover as a probe, after which a 2025 request would still pin 2025): a
// 2026-07-28 tools/list pins it modern, whatever the suite sends first, as a 2026 client would.
for (const method of ['server/discover', 'tools/list']) {
  const answered = await ask(method);
  if (answered.error) {
    log.error({ method, error: answered.error }, 'the stdio server refused the bridge');
    process.exit(1);
  }
}

const server = http.createServer((req, res) => {
  handle(req, res).catch((err) => {
    log.error({ err }, 'a request failed in the bridge');
    if (!res.headersSent) reply(res, 500, errorBody(null, -32603, 'Internal error in the bridge.'));
  });
});
server.listen(port, '127.0.0.1', () =>
  log.info({ url: `http://127.0.0.1:${port}/mcp` }, `bridge on http://127.0.0.1:${port}/mcp`),
);
