/**
 * What arrives on a transport before the SDK sees it: one JSON-RPC message, or the error the
 * client is owed. The SDK drops what its schema refuses with only a log line, so a request
 * with an id it cannot use (1.5, 1e308, an object) left the client waiting for ever. Here every
 * request gets an answer: a line that is not JSON is a Parse error (-32700); valid JSON that is
 * no single message — a batch, a bare value, a request with a bad id or member — is an Invalid
 * Request (-32600). The reply carries the request's id when it is one a client can match, else
 * null (JSON-RPC 2.0 § 5: null when the id could not be determined). Malformed responses
 * (a `result` or `error` without a `method`) are never answered: JSON-RPC answers requests only.
 *
 * Ids are what MCP allows, a string or an integer, and integers only within ±(2^53 − 1):
 * JSON.parse rounds anything larger (2^64 reads as 18446744073709552000, 1e308 writes back as
 * 1e+308), so echoing it would hand a client that reads ids exactly (Python, Go's json.Number)
 * a different id — worse than null, which at least cannot be matched to the wrong call. The
 * SDK's own schema draws the same line (`z.number().int()` is a safe integer in zod 4).
 */
import { type JSONRPCMessage, ProtocolErrorCode as ErrorCode, specTypeSchemas } from '@modelcontextprotocol/server';
import type { z } from 'zod';
import { CHECKED_PARAMS, invalidParams } from './requests.js';

// The SDK's own wire schema (a zod schema behind its Standard Schema type), so what we take is what it takes.
const JSONRPCMessageSchema = specTypeSchemas.JSONRPCMessage as unknown as z.ZodType<JSONRPCMessage>;

export type RequestId = string | number;

/** A JSON-RPC error answer; `id` null when the request's own could not be used. */
export interface JsonRpcErrorReply {
  jsonrpc: '2.0';
  id: RequestId | null;
  error: { code: number; message: string; data?: Record<string, unknown> };
}

export type Checked =
  | { ok: true; message: JSONRPCMessage }
  /** `reason` is for the log; `reply`, when present, is owed to the client. */
  | { ok: false; reason: string; reply?: JsonRpcErrorReply };

export const BATCH_REFUSED =
  'Invalid Request: batches (JSON arrays) are not supported; send one JSON-RPC message at a time (MCP 2025-06-18 removed batching).';

/** An id a client can match its answer by: a string, or an integer JSON numbers carry exactly. */
export function isUsableId(id: unknown): id is RequestId {
  return typeof id === 'string' || Number.isSafeInteger(id);
}

/** One line of the stdio framing: JSON first, then a message. */
export function checkLine(line: string): Checked {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (error) {
    const message = 'Parse error: the line is not JSON; send one JSON-RPC message per line.';
    return {
      ok: false,
      reason: `${message} (${(error as Error).message})`,
      reply: errorReply(null, ErrorCode.ParseError, message),
    };
  }
  return checkMessage(value);
}

/** A parsed JSON value: one message, or what is owed instead. */
export function checkMessage(value: unknown): Checked {
  if (Array.isArray(value))
    return refuse(null, BATCH_REFUSED, { error: 'batch_not_supported', messages: value.length });
  if (value === null || typeof value !== 'object')
    return refuse(null, `Invalid Request: a JSON-RPC message is an object, not ${kindOf(value)}.`);
  const parsed = JSONRPCMessageSchema.safeParse(value);
  if (parsed.success) return paramsChecked(parsed.data);
  const object = value as Record<string, unknown>;
  if (!('method' in object) && ('result' in object || 'error' in object)) {
    return {
      ok: false,
      reason: `A malformed JSON-RPC response was dropped (${problemOf(object, parsed.error.issues)}).`,
    };
  }
  if ('id' in object && !isUsableId(object.id)) {
    return refuse(
      null,
      `Invalid Request: the id must be a string or an integer between -(2^53-1) and 2^53-1 (MCP); got ${describeId(object.id)}.`,
      { error: 'invalid_id' },
    );
  }
  return refuse(
    isUsableId(object.id) ? object.id : null,
    `Invalid Request: ${problemOf(object, parsed.error.issues)}.`,
  );
}

/**
 * A request whose params miss or mistype a field gets -32602 with a sentence naming it; the SDK's
 * own check answers the same code with its schema's issues as a JSON dump.
 */
function paramsChecked(message: JSONRPCMessage): Checked {
  if (!('method' in message) || !('id' in message)) return { ok: true, message };
  const schema = CHECKED_PARAMS[message.method];
  const result = schema?.safeParse(message.params);
  if (!result || result.success) return { ok: true, message };
  const error = invalidParams(message.method, result.error);
  return { ok: false, reason: error.message, reply: errorReply(message.id, error.code, error.message) };
}

export function errorReply(
  id: RequestId | null,
  code: number,
  message: string,
  data?: Record<string, unknown>,
): JsonRpcErrorReply {
  return { jsonrpc: '2.0', id, error: { code, message, ...(data ? { data } : {}) } };
}

function refuse(id: RequestId | null, message: string, data?: Record<string, unknown>): Checked {
  return { ok: false, reason: message, reply: errorReply(id, ErrorCode.InvalidRequest, message, data) };
}

const MEMBERS = new Set(['jsonrpc', 'id', 'method', 'params']);

/** The first thing wrong with a request-like object, as a phrase. */
function problemOf(
  object: Record<string, unknown>,
  issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>,
): string {
  if (object.jsonrpc !== '2.0') return '"jsonrpc" must be "2.0"';
  if ('method' in object && typeof object.method !== 'string') return '"method" must be a string';
  if (!('method' in object) && !('result' in object) && !('error' in object)) return 'a request needs a "method"';
  if (
    'params' in object &&
    (object.params === null || typeof object.params !== 'object' || Array.isArray(object.params))
  )
    return '"params" must be an object';
  const extra = 'method' in object ? Object.keys(object).find((key) => !MEMBERS.has(key)) : undefined;
  if (extra !== undefined) return `unexpected member "${extra.slice(0, 64)}"`;
  const issue = issues[0];
  return issue ? `${issue.path.map(String).join('.') || 'message'}: ${issue.message}` : 'not a JSON-RPC 2.0 message';
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  const type = typeof value;
  return type === 'object' ? 'an object' : `a ${type}`;
}

function describeId(id: unknown): string {
  if (typeof id !== 'number') return kindOf(id);
  return Number.isInteger(id) ? `${id}, an integer too large to carry exactly` : `${id}, not an integer`;
}
