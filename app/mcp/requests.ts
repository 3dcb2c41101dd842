/**
 * Request handlers that parse their own params, so a malformed request gets -32602 with a
 * sentence naming the field instead of -32603 with a zod dump, and failures carry the JSON-RPC
 * code the MCP spec gives them (-32002 unknown resource, -32602 unknown tool or prompt).
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { Protocol, type RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { ErrorCode, type ServerNotification, type ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { toNotekernelError } from '../../kernel/errors.js';

/** MCP's code for an unknown resource URI (spec, resources § Error handling). */
export const RESOURCE_NOT_FOUND = -32002;

export type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/**
 * A JSON-RPC error the SDK sends as is: its `code`, `message` and `data`. Not the SDK's
 * McpError, whose message already starts "MCP error <code>:", which the client prefixes again.
 */
export class ProtocolError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
    this.name = 'ProtocolError';
  }
}

const meta = z
  .object({ progressToken: z.union([z.string(), z.number()]).optional() })
  .loose()
  .optional();

export const toolCallParams = z
  .object({
    name: z.string({ error: 'a tool name (string) is required' }).min(1, 'a tool name is required'),
    arguments: z.record(z.string(), z.unknown(), { error: 'arguments must be an object' }).optional(),
    _meta: meta,
  })
  .loose();

export const readResourceParams = z
  .object({ uri: z.string({ error: 'a resource uri (string) is required' }), _meta: meta })
  .loose();

export const getPromptParams = z
  .object({
    name: z.string({ error: 'a prompt name (string) is required' }),
    arguments: z.record(z.string(), z.string(), { error: 'prompt arguments must be an object of strings' }).optional(),
    _meta: meta,
  })
  .loose();

export const listParams = z.object({ cursor: z.string().optional(), _meta: meta }).loose().optional();

/**
 * Installs `handler` for `method`, bypassing the SDK's own request parsing (its zod failure
 * becomes an internal error, and its tools/call wrapper quotes the raw zod issues).
 */
export function handle<P extends z.ZodType, R>(
  server: Server,
  method: string,
  params: P,
  handler: (params: z.output<P>, extra: Extra) => Promise<R>,
): void {
  const schema = z.object({ method: z.literal(method), params: z.unknown().optional() }).loose();
  const install = Protocol.prototype.setRequestHandler as (
    this: Server,
    s: typeof schema,
    h: (r: z.output<typeof schema>, e: Extra) => Promise<R>,
  ) => void;
  install.call(server, schema, async (request, extra) => {
    const parsed = params.safeParse(request.params);
    if (!parsed.success) throw invalidParams(method, parsed.error);
    return handler(parsed.data, extra);
  });
}

function invalidParams(method: string, error: z.ZodError): ProtocolError {
  const fields = error.issues.map((issue) => `${issue.path.map(String).join('.') || 'params'}: ${issue.message}`);
  return new ProtocolError(ErrorCode.InvalidParams, `Invalid ${method} request: ${fields.join('; ')}`);
}

/** A failure of resources/read or prompts/get as the protocol error a client expects. */
export function protocolError(err: unknown, notFoundCode: number): ProtocolError {
  if (err instanceof ProtocolError) return err;
  const error = toNotekernelError(err);
  if (error.code === 'not_found') return new ProtocolError(notFoundCode, error.message, error.details);
  if (error.code === 'validation_failed')
    return new ProtocolError(ErrorCode.InvalidParams, error.message, error.details);
  return new ProtocolError(ErrorCode.InternalError, error.message, { error: error.code });
}
