/**
 * The HTTP+SSE transport of MCP 2024-11-05, for clients that predate Streamable HTTP (the
 * Inspector 0.14, older SDKs): `GET /sse` opens a session's event stream, whose first event
 * names `/messages?sessionId=...`, where the client POSTs its requests. The SDK's frozen
 * SSEServerTransport (`@modelcontextprotocol/server-legacy`) does the protocol; this file only routes, behind the same Host, Origin and
 * token checks as `/mcp`, and in the same session table (idle expiry and cap included).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/server';
import { SSEServerTransport } from '@modelcontextprotocol/server-legacy/sse';
import type { SessionTable } from './http-sessions.js';

export interface LegacySseContext {
  path: string;
  sessions: SessionTable;
  createServer(): Server;
  replyError(res: ServerResponse, status: number, code: number, message: string): void;
  /** Reads a POST body under the message limit; undefined when it was refused (and answered). */
  readBody(req: IncomingMessage, res: ServerResponse): Promise<{ body: unknown } | undefined>;
}

export async function handleLegacySse(req: IncomingMessage, res: ServerResponse, ctx: LegacySseContext): Promise<void> {
  const { sessions, replyError } = ctx;
  if (ctx.path === '/sse') {
    if (req.method !== 'GET') return replyError(res, 405, -32000, 'Open the legacy SSE stream with GET /sse.');
    if (!sessions.makeRoom()) return replyError(res, 503, -32000, 'Too many sessions are busy; retry shortly.');
    const transport = new SSEServerTransport('/messages', res);
    const server = ctx.createServer();
    transport.onclose = () => sessions.forget(transport.sessionId);
    sessions.add(transport.sessionId, transport, server);
    const session = sessions.get(transport.sessionId);
    // The stream stays open for the whole session: the session is busy, never idle, until it closes.
    if (session) sessions.track(session, (done) => res.once('close', done));
    await server.connect(transport);
    return;
  }
  if (req.method !== 'POST') return replyError(res, 405, -32000, 'Send messages with POST /messages?sessionId=...');
  const id = new URL(req.url ?? '/', 'http://localhost').searchParams.get('sessionId') ?? '';
  const session = sessions.get<SSEServerTransport>(id);
  if (!session || !(session.transport instanceof SSEServerTransport)) {
    return replyError(
      res,
      404,
      -32001,
      'Session not found (unknown, expired or closed); open a new stream with GET /sse.',
    );
  }
  sessions.track(session, (done) => res.once('close', done));
  const read = await ctx.readBody(req, res);
  if (read) await session.transport.handlePostMessage(req, res, read.body);
}
