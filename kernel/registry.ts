/**
 * The vault's tool table and its single `invoke()` path: look up, refuse writes when read-only,
 * validate with zod (naming the field), run, and let typed errors through to the surface.
 */
import type { z } from 'zod';
import type { VaultFaults } from './faults.js';
import type { VaultInfo } from './vault-info.js';
import {
  KernelFrozenError,
  NotekernelError,
  NotFoundError,
  PluginDependencyError,
  ReadOnlyError,
  ValidationError,
} from './errors.js';
import { DEFAULT_MESSAGE_BYTES, tooLarge } from './message-limit.js';
import { prepareArgs, withNotices } from './tool-args.js';
import { plainJsonSchema, type AnyTool, type ListSchema, type ToolContext, type ToolInfo } from './tool.js';

interface Entry {
  tool: AnyTool;
  plugin: string;
  exposedName: string;
}

export interface ToolNaming {
  rename: Record<string, string>;
  hide: string[];
}

export class ToolRegistry {
  private readonly byName = new Map<string, Entry>();
  private readonly byDefinition = new Map<AnyTool, Entry>();
  private readonly usedNames = new Set<string>();
  private frozen = false;
  private infoCache?: ToolInfo[];

  constructor(
    private readonly naming: ToolNaming,
    /** Read when a call arrives: a backend may make the vault read-only at open. */
    private readonly access: Pick<VaultInfo, 'readOnly' | 'readOnlyReason'>,
    /** Largest arguments a call may carry, as JSON (decision 028): a note arrives in them. */
    private readonly maxArgumentBytes = DEFAULT_MESSAGE_BYTES,
    /** Faults under way in the vault's background work, told in every answer's notices. */
    private readonly faults?: Pick<VaultFaults, 'notices'>,
    private readonly extras: { checkToolOutputs?: boolean; listSchema?: ListSchema } = {},
  ) {}

  add(plugin: string, tool: AnyTool): void {
    if (this.frozen) throw new KernelFrozenError(`add tool "${tool.name}" from plugin "${plugin}"`);
    // `plugin/tool` names one plugin's tool; a bare `tool` names it whichever plugin serves it.
    const qualified = `${plugin}/${tool.name}`;
    const renameKey =
      qualified in this.naming.rename ? qualified : tool.name in this.naming.rename ? tool.name : undefined;
    if (renameKey) this.usedNames.add(renameKey);
    const exposedName = renameKey ? (this.naming.rename[renameKey] as string) : tool.name;
    const hideKey = [qualified, tool.name, exposedName].find((name) => this.naming.hide.includes(name));
    if (hideKey) {
      this.usedNames.add(hideKey);
      return;
    }
    const existing = this.byName.get(exposedName);
    if (existing) {
      throw new PluginDependencyError(
        `Tool "${exposedName}" is contributed by both plugin "${existing.plugin}" and plugin "${plugin}"; rename or hide one under tools in the config.`,
        { tool: exposedName, plugins: [existing.plugin, plugin] },
      );
    }
    const entry = { tool, plugin, exposedName };
    this.byName.set(exposedName, entry);
    this.byDefinition.set(tool, entry);
  }

  freeze(): void {
    this.frozen = true;
  }

  /** rename/hide entries that matched no tool: usually a typo, or a plugin the config dropped. */
  unusedNames(): string[] {
    return [...Object.keys(this.naming.rename), ...this.naming.hide].filter((name) => !this.usedNames.has(name));
  }

  list(): ToolInfo[] {
    this.infoCache ??= [...this.byName.values()].map(({ tool, plugin, exposedName }) => ({
      name: exposedName,
      description: tool.description,
      inputSchema: (this.extras.listSchema ?? plainJsonSchema)(tool.input),
      ...(tool.output ? { outputSchema: (this.extras.listSchema ?? plainJsonSchema)(tool.output) } : {}),
      annotations: { ...tool.annotations },
      plugin,
    }));
    return this.infoCache;
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  isGlobal(name: string): boolean {
    return this.byName.get(name)?.tool.global === true;
  }

  nameOf(tool: AnyTool): string | undefined {
    return this.byDefinition.get(tool)?.exposedName;
  }

  async invoke(name: string, rawArgs: unknown, ctx: ToolContext): Promise<unknown> {
    const entry = this.byName.get(name);
    if (!entry) {
      throw new NotFoundError(`Unknown tool "${name}". Available tools: ${[...this.byName.keys()].join(', ')}`, {
        tool: name,
      });
    }
    const { tool } = entry;
    if (this.access.readOnly && !tool.annotations.readOnlyHint)
      throw new ReadOnlyError(name, this.access.readOnlyReason);
    const bytes = argumentBytes(rawArgs, this.maxArgumentBytes);
    if (bytes > this.maxArgumentBytes) throw tooLarge(`The arguments of ${name}`, bytes, this.maxArgumentBytes);
    const prepared = prepareArgs(tool, rawArgs ?? {});
    const parsed = tool.input.safeParse(prepared.args);
    if (!parsed.success) throw argumentError(name, parsed.error);
    const result = await tool.handler(parsed.data, ctx);
    const faults = this.faults?.notices() ?? [];
    const answer = withNotices(result, faults.length ? [...prepared.notices, ...faults] : prepared.notices);
    if (this.extras.checkToolOutputs && tool.output) checkOutput(name, tool.output, answer);
    return answer;
  }
}

/** The answer as a client checks it: JSON, an object (MCP's structuredContent), against the schema. */
function checkOutput(tool: string, schema: z.ZodType, answer: unknown): void {
  const plain = JSON.parse(JSON.stringify(answer ?? null)) as unknown;
  const structured = plain !== null && typeof plain === 'object' && !Array.isArray(plain) ? plain : { result: plain };
  const parsed = schema.safeParse(structured);
  if (parsed.success) return;
  const issues = parsed.error.issues.map(
    (issue) => `${issue.path.map(String).join('.') || '(answer)'}: ${issue.message}`,
  );
  throw new NotekernelError(
    'internal',
    `The answer of ${tool} does not match its output schema: ${issues.join('; ')}`,
    { tool, issues },
  );
}

/**
 * The arguments' size as JSON. Only calls with a long string can come near the limit, so the
 * common small call is not serialised: its strings are summed first, and that sum is a lower bound.
 */
function argumentBytes(args: unknown, limit: number): number {
  let chars = 0;
  const visit = (value: unknown): void => {
    if (typeof value === 'string') chars += value.length;
    else if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === 'object')
      for (const [key, child] of Object.entries(value)) {
        chars += key.length;
        visit(child);
      }
  };
  visit(args);
  // UTF-8 takes at most 3 bytes per UTF-16 unit; below a third of the limit no exact count is needed.
  if (chars * 3 < limit) return chars;
  return Buffer.byteLength(JSON.stringify(args ?? {}), 'utf8');
}

function argumentError(tool: string, error: z.ZodError): ValidationError {
  const issues = error.issues.map((issue) => ({
    field: issue.path.map(String).join('.') || '(arguments)',
    message: issue.message,
  }));
  const summary = issues.map((i) => `${i.field}: ${i.message}`).join('; ');
  return new ValidationError(`Invalid arguments for ${tool}: ${summary}`, {
    tool,
    fields: [...new Set(issues.map((i) => i.field))],
    issues,
  });
}
