/**
 * Request handlers that parse their own params, so a malformed request gets -32602 with a
 * sentence naming the field instead of -32603 with a zod dump, and failures carry the JSON-RPC
 * code the MCP spec gives them (-32602 for an unknown tool, prompt or resource).
 */
import { ProtocolError, ProtocolErrorCode, type Server, type ServerContext } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { toNotekernelError } from '../../kernel/errors.js';

export { ProtocolError };

/**
 * An unknown resource URI: -32602 with the URI in `data` (MCP 2026-07-28, SEP-2164). The SDK sends
 * that code to every era (it maps the older -32002), so both eras get the same answer.
 */
export const RESOURCE_NOT_FOUND = ProtocolErrorCode.InvalidParams;

export type Extra = ServerContext;

const ANY_PARAMS = z.unknown();

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
 * Installs `handler` for `method`, parsing its params with our own schema on top of the SDK's, so a
 * malformed request is refused with a sentence naming the field.
 */
export function handle<P extends z.ZodType, R>(
  server: Server,
  method: string,
  params: P,
  handler: (params: z.output<P>, extra: Extra) => Promise<R>,
): void {
  // The schema form takes the params as sent: the SDK's own check would answer first, with a zod dump.
  const install = server.setRequestHandler.bind(server) as (
    method: string,
    schemas: { params: z.ZodType },
    h: (params: unknown, extra: Extra) => Promise<R>,
  ) => void;
  install(method, { params: ANY_PARAMS }, async (raw, extra) => {
    const parsed = params.safeParse(raw);
    if (!parsed.success) throw invalidParams(method, parsed.error);
    return handler(parsed.data, extra);
  });
}

/** The params of the requests whose fields a client most often gets wrong, checked before the SDK's (jsonrpc-check.ts). */
export const CHECKED_PARAMS: Record<string, z.ZodType> = {
  'tools/call': toolCallParams,
  'resources/read': readResourceParams,
  'prompts/get': getPromptParams,
};

export function invalidParams(method: string, error: z.ZodError): ProtocolError {
  const fields = error.issues.map((issue) => `${issue.path.map(String).join('.') || 'params'}: ${issue.message}`);
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid ${method} request: ${fields.join('; ')}`);
}

/** A failure of resources/read or prompts/get as the protocol error a client expects. */
export function protocolError(
  err: unknown,
  notFoundCode: number,
  subject: Record<string, unknown> = {},
): ProtocolError {
  if (err instanceof ProtocolError) return err;
  const error = toNotekernelError(err);
  if (error.code === 'not_found')
    return new ProtocolError(notFoundCode, error.message, { ...error.details, ...subject });
  if (error.code === 'validation_failed')
    return new ProtocolError(ProtocolErrorCode.InvalidParams, error.message, error.details);
  return new ProtocolError(ProtocolErrorCode.InternalError, error.message, { error: error.code });
}
