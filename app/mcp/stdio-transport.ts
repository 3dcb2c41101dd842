/**
 * MCP's stdio framing (one JSON-RPC message per line) with the size limit of decision 028.
 *
 * The SDK's StdioServerTransport joins every chunk onto the buffer so far and searches it again
 * from the start for a newline: a 20 MB line arriving in 64 KB pieces copies and scans the
 * buffer ~300 times (gigabytes of work, seconds of a blocked loop), and past 10 MiB it throws
 * and closes the transport — the session ends with no answer. Here each chunk is searched once,
 * pieces are joined once per line, and a line past the limit is not kept at all: its first and
 * last bytes are, to find its id, and the client gets a JSON-RPC error for that request as soon
 * as the line ends. The session goes on. A line that is not one JSON-RPC message (not JSON, a
 * batch, a request with an id no client can match) gets the JSON-RPC error it is owed, by
 * jsonrpc-check.ts, instead of the SDK's silence.
 *
 * Outgoing frames past the reply ceiling (a tool answer is carried twice, as text and as
 * structuredContent: see tool-results.ts) become an error for that request, since a client's
 * own reader (the SDK's stops at 10 MiB) would otherwise drop the connection.
 */
import process from 'node:process';
import {
  type JSONRPCMessage,
  PROTOCOL_VERSION_META_KEY,
  ProtocolErrorCode,
  type Transport,
} from '@modelcontextprotocol/server';
import { tooLargeMessage } from '../../kernel/message-limit.js';
import { checkLine, isUsableId } from './jsonrpc-check.js';
import { replyCeiling } from './tool-results.js';

/** JSON-RPC "Invalid Request": the message was refused unread. */
export const MESSAGE_TOO_LARGE = -32600;
/** JSON-RPC "Internal error": the answer could not be sent in one frame. */
export const ANSWER_TOO_LARGE = -32603;

const KEEP = 256;

export class LimitedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Told of every message refused, instead of `onerror` (which the SDK's serveStdio takes for itself). */
  onrefused?: (error: Error) => void;

  private parts: Buffer[] = [];
  private size = 0;
  private head: Buffer | undefined;
  private tail: Buffer = Buffer.alloc(0);
  private started = false;

  constructor(
    private readonly limit: number,
    private readonly stdin: NodeJS.ReadableStream = process.stdin,
    private readonly stdout: NodeJS.WritableStream = process.stdout,
  ) {}

  async start(): Promise<void> {
    if (this.started) throw new Error('LimitedStdioTransport already started');
    this.started = true;
    this.stdin.on('data', this.onData);
    this.stdin.on('error', this.onStreamError);
  }

  async close(): Promise<void> {
    this.stdin.off('data', this.onData);
    this.stdin.off('error', this.onStreamError);
    if (this.stdin.listenerCount('data') === 0) this.stdin.pause();
    this.parts = [];
    this.onclose?.();
  }

  send(message: JSONRPCMessage): Promise<void> {
    let json = JSON.stringify(message);
    const bytes = Buffer.byteLength(json, 'utf8');
    const ceiling = replyCeiling(this.limit);
    if (bytes > ceiling && 'id' in message && 'result' in message) {
      json = JSON.stringify({
        jsonrpc: '2.0',
        id: message.id,
        error: {
          code: ANSWER_TOO_LARGE,
          message: tooLargeMessage('The answer', bytes, ceiling),
          data: { error: 'too_large', bytes, limit: ceiling },
        },
      });
    }
    return new Promise((resolve) => {
      if (this.stdout.write(`${json}\n`)) resolve();
      else this.stdout.once('drain', resolve);
    });
  }

  private readonly onStreamError = (error: Error) => this.onerror?.(error);

  private refused(error: Error): void {
    if (this.onrefused) this.onrefused(error);
    else this.onerror?.(error);
  }

  private readonly onData = (chunk: Buffer) => {
    let from = 0;
    for (;;) {
      const newline = chunk.indexOf(10, from);
      if (newline === -1) {
        if (from < chunk.length) this.keep(chunk.subarray(from));
        return;
      }
      this.keep(chunk.subarray(from, newline));
      this.endLine();
      from = newline + 1;
    }
  };

  private keep(piece: Buffer): void {
    this.size += piece.length;
    if (this.head) {
      this.tail = lastBytes(this.tail, piece);
      return;
    }
    this.parts.push(piece);
    if (this.size > this.limit) {
      // Past the limit: keep what may hold the id, drop the rest.
      const all = Buffer.concat(this.parts);
      this.head = all.subarray(0, KEEP);
      this.tail = Buffer.from(all.subarray(-KEEP));
      this.parts = [];
    }
  }

  private endLine(): void {
    const size = this.size;
    const oversized = this.head;
    const tail = this.tail;
    const parts = this.parts;
    this.parts = [];
    this.size = 0;
    this.head = undefined;
    this.tail = Buffer.alloc(0);
    if (oversized) return this.refuse(oversized, tail, size);
    if (size === 0) return;
    const line = Buffer.concat(parts).toString('utf8');
    // A blank line (an empty one, a lone \r of CRLF framing) carries nothing and is skipped.
    if (line.trim() === '') return;
    // Whatever cannot be taken is logged, and answered when a request is owed one (jsonrpc-check.ts).
    const checked = checkLine(line);
    if (checked.ok) {
      const refusal = unsupportedRevision(checked.message);
      if (refusal) return void this.send(refusal);
      return this.onmessage?.(checked.message);
    }
    this.refused(new Error(checked.reason));
    if (checked.reply) void this.send(checked.reply as unknown as JSONRPCMessage);
  }

  private refuse(head: Buffer, tail: Buffer, size: number): void {
    const id = requestId(head.toString('utf8'), tail.toString('utf8'));
    const error = new Error(tooLargeMessage('A message', size, this.limit));
    this.refused(error);
    if (id === undefined) return;
    void this.send({
      jsonrpc: '2.0',
      id,
      error: {
        code: MESSAGE_TOO_LARGE,
        message: error.message,
        data: { error: 'too_large', bytes: size, limit: this.limit },
      },
    } as JSONRPCMessage);
  }
}

/** The revisions of the per-request era the SDK serves (it exports only the 2025 list). */
const MODERN_REVISIONS = ['2026-07-28'];

/**
 * A request naming a revision this server does not serve gets -32022 with the ones it does. The
 * SDK's serveStdio checks only a connection's opening message; over HTTP its handler checks each.
 */
function unsupportedRevision(message: JSONRPCMessage): JSONRPCMessage | undefined {
  if (!('method' in message) || !('id' in message)) return undefined;
  const requested = (message.params?._meta as Record<string, unknown> | undefined)?.[PROTOCOL_VERSION_META_KEY];
  if (typeof requested !== 'string' || MODERN_REVISIONS.includes(requested)) return undefined;
  return {
    jsonrpc: '2.0',
    id: message.id,
    error: {
      code: ProtocolErrorCode.UnsupportedProtocolVersion,
      message: `Unsupported protocol version: ${requested}`,
      data: { supported: MODERN_REVISIONS, requested },
    },
  } as JSONRPCMessage;
}

function lastBytes(tail: Buffer, piece: Buffer): Buffer {
  if (piece.length >= KEEP) return Buffer.from(piece.subarray(-KEEP));
  return Buffer.concat([tail, piece]).subarray(-KEEP);
}

// A number must end where the id does: `"id":1.5` or `"id":1e308` is not id 1.
const ID = String.raw`"id"\s*:\s*(-?\d+(?=\s*[,}])|"(?:[^"\\]|\\.){0,200}")`;
/** Our SDK's client writes the id last; other clients often write it first, after jsonrpc. */
const ID_AT_END = new RegExp(`[,{]\\s*${ID}\\s*}\\s*$`);
const ID_AT_START = new RegExp(`^\\s*\\{\\s*(?:"jsonrpc"\\s*:\\s*"2\\.0"\\s*,\\s*)?${ID}`);

/**
 * The id of a request known only by its first and last bytes; undefined for a notification,
 * null when there is no id a client could match (see jsonrpc-check.ts).
 */
export function requestId(head: string, tail: string): string | number | null | undefined {
  const match = ID_AT_END.exec(tail) ?? ID_AT_START.exec(head);
  if (!match?.[1]) return /"method"/.test(head) && !/"id"/.test(head + tail) ? undefined : null;
  const id = JSON.parse(match[1]) as unknown;
  return isUsableId(id) ? id : null;
}
