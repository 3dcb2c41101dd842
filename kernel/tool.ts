/**
 * A tool is declared once (name, description, zod input, annotations, handler) and served
 * unchanged over MCP, the CLI and the library, all through `ToolRegistry.invoke()`.
 */
import { z } from 'zod';
import type { CapabilityName } from './backend.js';
import { shareRepeatedSubschemas } from './json-schema-sharing.js';
import { NAME_LIMITS } from './name-limits.js';
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

export function toolJsonSchema(tool: AnyTool): Record<string, unknown> {
  return listedJsonSchema(tool.input);
}

/**
 * A schema as tools/list shows it. Every listing carries it, so what says nothing is left out
 * (decision 017): JSON Schema's own defaults, zod's safe-integer bounds, `minLength: 1` (an empty
 * name is never meant, and the refusal names the field) and the bounds of names and paths
 * (name-limits.ts); sizeable repeats are shared under `$defs`.
 */
export function listedJsonSchema(zodSchema: z.ZodType): Record<string, unknown> {
  const schema = z.toJSONSchema(zodSchema, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  delete schema.$schema;
  const prune = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(prune);
    if (!node || typeof node !== 'object') return;
    const object = node as Record<string, unknown>;
    if (object.minLength === 1) delete object.minLength;
    if (typeof object.maxLength === 'number' && NAME_LIMITS.has(object.maxLength)) delete object.maxLength;
    if (object.maximum === Number.MAX_SAFE_INTEGER) delete object.maximum;
    if (object.minimum === Number.MIN_SAFE_INTEGER) delete object.minimum;
    if (isEmptyObject(object.additionalProperties)) delete object.additionalProperties;
    if (JSON.stringify(object.propertyNames) === '{"type":"string"}') delete object.propertyNames;
    for (const [key, child] of Object.entries(object)) {
      // Inside `properties` the keys are field names: a field called "minLength" is no keyword.
      if (key === 'properties' && child && typeof child === 'object') Object.values(child).forEach(prune);
      else prune(child);
    }
  };
  prune(schema);
  return shareRepeatedSubschemas(schema);
}

function isEmptyObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
}
