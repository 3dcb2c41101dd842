/**
 * A tool is declared once (name, description, zod input, annotations, handler) and served
 * unchanged over MCP, the CLI and the library, all through `ToolRegistry.invoke()`.
 */
import { z } from 'zod';
import type { CapabilityName } from './backend.js';
import type { Logger } from './logger.js';
import type { ProgressReporter } from './progress.js';
import type { Token } from './container.js';
import type { NoteService } from './notes.js';
import type { VaultInfo } from './vault-info.js';

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

export interface ToolAnnotations {
  title?: string;
  readOnlyHint: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface ToolContext {
  vault: VaultInfo;
  logger: Logger;
  notes: NoteService;
  /** Long tools report here; the MCP surface forwards it when the client sent a progressToken. */
  progress: ProgressReporter;
  /**
   * The user's answers to what this call asked before (an `InputNeededError`), by question key: an
   * accepted answer is its fields, a declined one `null`. Empty on a first call.
   */
  answers: Readonly<Record<string, Record<string, unknown> | null>>;
  resolve<T>(token: Token<T>): T;
  tryResolve<T>(token: Token<T>): T | undefined;
}

// The input is any zod object schema: its parsed output is what the handler receives.
export type ToolInputSchema = z.ZodObject<z.ZodRawShape>;

export interface ToolDefinition<S extends ToolInputSchema = ToolInputSchema, R = unknown> {
  name: string;
  description: string;
  input: S;
  /** The answer's shape: rendered as the tool's MCP outputSchema, which clients check answers against. */
  output?: z.ZodType;
  annotations: ToolAnnotations;
  /** Backend capabilities the tool needs; checked at start-up against the chosen backend. */
  requires?: readonly CapabilityName[];
  /** A kernel-wide tool (vault management): its `vault_id` names its subject, so calls are never routed by it. */
  global?: boolean;
  handler(args: z.output<S>, ctx: ToolContext): Promise<R>;
}

// A registry holds tools of many input types; `handler` is declared as a method, so it is
// checked bivariantly and every concrete tool is assignable here.
export type AnyTool = ToolDefinition<ToolInputSchema, unknown>;

export type ToolArgs<T> = T extends ToolDefinition<infer S, unknown> ? z.input<S> : never;
export type ToolResult<T> = T extends ToolDefinition<ToolInputSchema, infer R> ? R : never;

export function defineTool<S extends ToolInputSchema, R>(definition: ToolDefinition<S, R>): ToolDefinition<S, R> {
  if (!TOOL_NAME.test(definition.name)) {
    throw new Error(`Tool name "${definition.name}" must match ${TOOL_NAME} (letters, digits, _ and -, at most 64).`);
  }
  return definition;
}

/** A zod schema as tools/list, the CLI's `tools` and the library's `vault.tools()` show it (KernelExtras.listSchema). */
export type ListSchema = (schema: z.ZodType) => Record<string, unknown>;

/** JSON Schema as zod writes it, without the dialect line. */
export const plainJsonSchema: ListSchema = (schema) => {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Record<
    string,
    unknown
  >;
  return rest;
};

/** What `tools/list`, the CLI's `tools` and the library's `vault.tools()` show. */
export interface ToolInfo {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  /** The JSON schema of the tool's answer, when the tool declares one. */
  outputSchema?: Record<string, unknown>;
  annotations: ToolAnnotations;
  plugin: string;
}
