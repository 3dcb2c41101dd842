/**
 * What tools/list and tools/call show of a tool: its output schema, and its answer both as the
 * pretty-printed JSON text older clients (and seed-compatible prompts) read and as
 * `structuredContent` (MCP 2025-06-18). Structured content must be an object, so an answer that
 * is not one (an array, a string) comes wrapped as `{ "result": ... }`.
 *
 * Output schemas are generic for now (any object): precise per-tool schemas are a later step.
 */
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { toNotekernelError } from '../../kernel/errors.js';
import type { ToolInfo } from '../../kernel/tool.js';

export const GENERIC_OUTPUT_SCHEMA: Tool['outputSchema'] = { type: 'object' };

export function toolListing(tool: ToolInfo): Tool {
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema as Tool['inputSchema'],
    outputSchema: GENERIC_OUTPUT_SCHEMA,
    annotations: tool.annotations,
  };
}

export function renderResult(value: unknown): CallToolResult {
  const text = JSON.stringify(value ?? null, null, 2);
  // Parsed back from the text: the structured answer is exactly what the text says (no Dates,
  // no undefined), whatever transport carries it.
  const plain = JSON.parse(text) as unknown;
  const structuredContent = isObject(plain) ? plain : { result: plain };
  return { content: [{ type: 'text', text }], structuredContent };
}

export function renderError(err: unknown): CallToolResult {
  const error = toNotekernelError(err);
  return { content: [{ type: 'text', text: JSON.stringify(error.toBody(), null, 2) }], isError: true };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
