/**
 * What tools/list and tools/call show of a tool: its output schema, and its answer both as the
 * pretty-printed JSON text older clients (and seed-compatible prompts) read and as
 * `structuredContent` (MCP 2025-06-18). Structured content must be an object, so an answer that
 * is not one (an array, a string) comes wrapped as `{ "result": ... }`.
 *
 * An answer bigger than the message limit (decision 028) is refused as a `too_large` tool error
 * that says how to ask for less; a big one under it loses the text's indentation, and if its
 * two copies together would still not fit one frame, the text only points to structuredContent.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/server';
import { toNotekernelError } from '../../kernel/errors.js';
import { DEFAULT_MESSAGE_BYTES, tooLarge } from '../../kernel/message-limit.js';
import type { ToolInfo } from '../../kernel/tool.js';

/**
 * The largest frame the server sends. A tool answer of up to `limit` bytes goes out twice (as
 * text and as structuredContent, MCP 2025-06-18), plus room for the envelope; with the default
 * limit this stays under the 10 MiB a standard SDK client reads in one line.
 */
export function replyCeiling(limit: number): number {
  return 2 * limit + 1024 * 1024;
}

/** Listed for a tool that declares no `output` (a third-party plugin's); every built-in tool declares one. */
export const GENERIC_OUTPUT_SCHEMA: Tool['outputSchema'] = { type: 'object' };

export function toolListing(tool: ToolInfo): Tool {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema as Tool['inputSchema'],
    outputSchema: (tool.outputSchema as Tool['outputSchema'] | undefined) ?? GENERIC_OUTPUT_SCHEMA,
    annotations: listedAnnotations(tool.name, tool.annotations),
  };
}

/**
 * What MCP's defaults already say is left out (decision 017): `readOnlyHint: false`,
 * `destructiveHint: true` and `idempotentHint: false` are the defaults, and a read-only tool's
 * destructive and idempotent hints mean nothing (the specification says they matter only when
 * `readOnlyHint` is false). So is a title that only spells the name out ("List tags" for
 * list_tags): a client shows the name when there is no title.
 */
function listedAnnotations(name: string, annotations: ToolInfo['annotations']): Tool['annotations'] {
  const { readOnlyHint, destructiveHint, idempotentHint, title, ...open } = annotations;
  const rest = title === undefined || spellsOut(title, name) ? open : { title, ...open };
  if (readOnlyHint) return { ...rest, readOnlyHint };
  return {
    ...rest,
    ...(destructiveHint === false ? { destructiveHint } : {}),
    ...(idempotentHint ? { idempotentHint } : {}),
  };
}

export function renderResult(value: unknown, limit = DEFAULT_MESSAGE_BYTES, tool = 'the tool'): CallToolResult {
  const answer = value ?? null;
  // Tool answers are plain JSON data (their output schemas say so): the object itself is the
  // structured answer, and one pretty string is the text.
  const structuredContent = isObject(answer) ? answer : { result: answer };
  const pretty = JSON.stringify(answer, null, 2);
  const prettyBytes = Buffer.byteLength(pretty, 'utf8');
  // Small answers (nearly all) skip the size bookkeeping below.
  if (prettyBytes * 4 < limit) return { content: [{ type: 'text', text: pretty }], structuredContent };
  const compact = JSON.stringify(answer);
  const bytes = Buffer.byteLength(compact, 'utf8');
  if (bytes > limit) {
    return renderError(
      tooLarge(`The answer of ${tool}`, bytes, limit),
      ' Ask for less: a smaller limit, fewer fields, an offset, or one note at a time.',
    );
  }
  const result: CallToolResult = {
    content: [{ type: 'text', text: prettyBytes > limit ? compact : pretty }],
    structuredContent,
  };
  if (Buffer.byteLength(JSON.stringify(result), 'utf8') > replyCeiling(limit) - 64 * 1024) {
    result.content = [
      {
        type: 'text',
        text: `The answer (${bytes} bytes) is too large to repeat as text; read it from structuredContent.`,
      },
    ];
  }
  return result;
}

export function renderError(err: unknown, advice = ''): CallToolResult {
  const error = toNotekernelError(err);
  const body = error.toBody();
  return {
    content: [
      { type: 'text', text: JSON.stringify(advice ? { ...body, message: body.message + advice } : body, null, 2) },
    ],
    isError: true,
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function spellsOut(title: string, name: string): boolean {
  return title.toLowerCase().replace(/[^a-z0-9]+/g, '_') === name.toLowerCase();
}
