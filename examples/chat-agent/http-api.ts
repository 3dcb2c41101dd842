/**
 * The seed's HTTP API: `POST /chat` with `{ message, session_id? }` answers
 * `{ response, session_id }` (plus the tool calls the turn made). No `session_id` starts a
 * conversation; an unknown one is 404. Errors answer `{ detail }`, as the seed's FastAPI did.
 */
import http from 'node:http';
import { ChatEndpointError } from './chat-completions.js';
import type { ToolCallRecord } from './agent.js';
import type { Session, Sessions } from './sessions.js';

export interface ChatReply {
  response: string;
  session_id: string;
  tool_calls: ToolCallRecord[];
}

/** Runs one turn of a session and returns the reply; the session keeps the turn's messages. */
export type ChatHandler = (session: Session, message: string) => Promise<ChatReply>;

const MAX_BODY_BYTES = 1_000_000;

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

async function readJson(req: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, `the request body is larger than ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new HttpError(400, 'the request body is not valid JSON; send {"message": "...", "session_id": "optional"}');
  }
}

function parseChatRequest(body: unknown): { message: string; sessionId?: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new HttpError(400, 'the request body must be a JSON object');
  const { message, session_id: sessionId } = body as Record<string, unknown>;
  if (typeof message !== 'string' || message.trim() === '')
    throw new HttpError(400, 'message: a non-empty string is required');
  if (sessionId !== undefined && sessionId !== null && typeof sessionId !== 'string')
    throw new HttpError(400, 'session_id: must be a string when given');
  return { message, ...(typeof sessionId === 'string' ? { sessionId } : {}) };
}

async function chat(req: http.IncomingMessage, sessions: Sessions, handle: ChatHandler): Promise<ChatReply> {
  const { message, sessionId } = parseChatRequest(await readJson(req));
  const session = sessionId === undefined ? sessions.create() : sessions.get(sessionId);
  if (!session) throw new HttpError(404, `Session ${sessionId} not found; omit session_id to start a new one`);
  try {
    return await sessions.serialise(session, () => handle(session, message));
  } catch (err) {
    // A conversation whose first turn failed was never named to the caller: nobody can continue it.
    if (sessionId === undefined) sessions.delete(session.id);
    throw err;
  }
}

/**
 * Any web page can POST to a loopback port (a form or `text/plain` fetch needs no preflight)
 * and, through a DNS name rebound to 127.0.0.1, read the answer: a page must not drive the
 * model and the vault's tools. Browsers alone send Origin, and a rebound name shows in Host.
 */
function refusal(req: http.IncomingMessage): string | undefined {
  if (req.headers.origin !== undefined) return `requests from web pages (Origin ${req.headers.origin}) are refused`;
  const hostname = (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
  if (hostname !== '127.0.0.1' && hostname !== 'localhost')
    return `Host "${req.headers.host ?? ''}" is not this server (127.0.0.1 or localhost)`;
  return undefined;
}

export function createChatServer(
  sessions: Sessions,
  handle: ChatHandler,
  log: (line: string) => void = console.error,
): http.Server {
  return http.createServer((req, res) => {
    const refused = refusal(req);
    if (refused) return send(res, 403, { detail: refused });
    const route = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (route !== '/chat') return send(res, 404, { detail: 'Not Found' });
    if (req.method !== 'POST') return send(res, 405, { detail: 'Method Not Allowed: use POST /chat' });
    chat(req, sessions, handle).then(
      (reply) => send(res, 200, reply),
      (err: unknown) => {
        if (err instanceof HttpError) return send(res, err.status, { detail: err.message });
        if (err instanceof ChatEndpointError) {
          log(err.message);
          return send(res, 502, { detail: err.message });
        }
        log(`chat failed: ${(err as Error).stack ?? String(err)}`);
        send(res, 500, { detail: "internal error; see the agent's log" });
      },
    );
  });
}
