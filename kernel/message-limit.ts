/**
 * One size limit for a message and a note, the same on every surface: an MCP request (stdio,
 * Streamable HTTP, legacy SSE), a tool's arguments (MCP, the CLI, the library) and a tool's
 * answer. A note arrives in one message, so the limit bounds notes too. Decision 028.
 */
import { TooLargeError } from './errors.js';

export const DEFAULT_MESSAGE_BYTES = 4 * 1024 * 1024;

/** Where a user changes the limit, said in every refusal. */
const MESSAGE_LIMIT_HINT = 'raise limits.messageBytes in the config file or NOTEKERNEL_MAX_MESSAGE_BYTES';

export function describeBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(bytes % (1024 * 1024) ? 1 : 0)} MiB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KiB`;
  return `${bytes} bytes`;
}

/** The sentence every refusal shares: what was too big, by how much, and how to change it. */
export function tooLargeMessage(what: string, bytes: number, limit: number): string {
  return `${what}: ${bytes} bytes, above the size limit of ${limit} bytes (${describeBytes(limit)}); send less, or ${MESSAGE_LIMIT_HINT}.`;
}

export function tooLarge(what: string, bytes: number, limit: number): TooLargeError {
  return new TooLargeError(tooLargeMessage(what, bytes, limit), { bytes, limit });
}
