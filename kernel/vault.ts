/**
 * An open vault: its own child scope (backends, plugin services), its frozen tool table, and
 * the library surface over `invoke()`.
 */
import type { Scope, Token } from './container.js';
import { NotFoundError, toNotekernelError } from './errors.js';
import type { HookRunner, NoteEvent } from './hooks.js';
import type { Fault, VaultFaults } from './faults.js';
import { noProgress, withCallProgress, type ProgressReporter } from './progress.js';
import { callCaller, withCaller } from './caller.js';
import type { Logger } from './logger.js';
import type { NoteService } from './notes.js';
import type { CliCommandDefinition, PromptDefinition, ResourceDefinition } from './plugin.js';
import type { ToolRegistry } from './registry.js';
import type { AnyTool, ToolArgs, ToolContext, ToolInfo, ToolResult } from './tool.js';
import type { VaultInfo } from './vault-info.js';
import { checkVaultIdLength } from './name-limits.js';
import { findResource } from './resource-template.js';

/** Per-call extras a surface passes along with the arguments. */
export interface CallOptions {
  progress?: ProgressReporter;
  /** Who asks (an MCP client's `name version`, `cli`); the journal records it. Default `library`. */
  caller?: string;
  /** Answers to the questions an earlier try of this call asked (ToolContext.answers). */
  answers?: Readonly<Record<string, Record<string, unknown> | null>>;
}

export interface VaultParts {
  info: VaultInfo;
  scope: Scope;
  registry: ToolRegistry;
  hooks: HookRunner;
  notes: NoteService;
  logger: Logger;
  faults: VaultFaults;
  resources: ResourceDefinition[];
  prompts: PromptDefinition[];
  cli: CliCommandDefinition[];
  onClose: () => void;
}

export class Vault {
  readonly info: VaultInfo;
  private closed = false;

  constructor(private readonly parts: VaultParts) {
    this.info = parts.info;
  }

  get notes(): NoteService {
    return this.parts.notes;
  }

  get logger(): Logger {
    return this.parts.logger;
  }

  /** What the vault's background work cannot do at the moment (a full disk, a read-only index). */
  faults(): Fault[] {
    return this.parts.faults.list();
  }

  tools(): ToolInfo[] {
    return this.parts.registry.list();
  }

  hasTool(name: string): boolean {
    return this.parts.registry.has(name);
  }

  /** True for kernel-wide tools whose `vault_id` names their subject (never routed by it). */
  isGlobalTool(name: string): boolean {
    return this.parts.registry.isGlobal(name);
  }

  /** Calls a tool by its (possibly renamed) name; throws a NotekernelError on failure. */
  call(name: string, args?: unknown, options?: CallOptions): Promise<unknown>;
  /** Calls a tool by its definition, typed by that definition's zod schema and handler. */
  call<T extends AnyTool>(tool: T, args: ToolArgs<T>, options?: CallOptions): Promise<ToolResult<T>>;
  async call(nameOrTool: string | AnyTool, args?: unknown, options: CallOptions = {}): Promise<unknown> {
    const name = typeof nameOrTool === 'string' ? nameOrTool : this.parts.registry.nameOf(nameOrTool);
    if (name === undefined) {
      throw new NotFoundError(
        `Tool "${(nameOrTool as AnyTool).name}" is not loaded in this vault (hidden, or its plugin is not in the profile).`,
      );
    }
    try {
      if (!this.isGlobalTool(name)) assertVault(this.info.id, args);
      const ctx = this.toolContext(options);
      const run = () => withCallProgress(ctx.progress, () => this.parts.registry.invoke(name, args, ctx));
      // A call made from inside another (a tool calling a tool) keeps the outer call's caller.
      return await withCaller(options.caller ?? callCaller(), run);
    } catch (err) {
      const error = toNotekernelError(err);
      if (error.code === 'internal') this.parts.logger.error({ err, tool: name }, 'tool failed unexpectedly');
      throw error;
    }
  }

  /** Runs the plugins' `vault.init` hooks: default types, welcome note (unless `sampleNotes: false`), ... Idempotent. */
  async init(options: { sampleNotes?: boolean } = {}): Promise<void> {
    await this.parts.hooks.runSequential('vault.init', {
      ...(this.info.root !== undefined ? { root: this.info.root } : {}),
      ...(options.sampleNotes === false ? { sampleNotes: false } : {}),
    });
  }

  resources(): ResourceDefinition[] {
    return this.parts.resources;
  }

  /** Every note written, deleted, renamed or moved here, by a tool or outside it (a watched edit). */
  onNoteChange(listener: (event: NoteEvent, vaultId: string) => void): () => void {
    return this.parts.hooks.observe((event) => listener(event, this.info.id));
  }

  async readResource(uri: string): Promise<unknown> {
    const found = findResource(this.parts.resources, uri);
    if (!found) throw new NotFoundError(`Unknown resource "${uri}".`, { uri });
    return found.resource.read(found.params, { call: (name, args) => this.call(name, args) });
  }

  prompts(): PromptDefinition[] {
    return this.parts.prompts;
  }

  cliCommands(): CliCommandDefinition[] {
    return this.parts.cli;
  }

  resolve<T>(tok: Token<T>): T {
    return this.parts.scope.resolve(tok);
  }

  tryResolve<T>(tok: Token<T>): T | undefined {
    return this.parts.scope.tryResolve(tok);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await this.parts.scope.dispose();
    } finally {
      this.parts.onClose();
    }
  }

  private toolContext(options: CallOptions): ToolContext {
    const scope = this.parts.scope;
    return {
      vault: this.info,
      logger: this.parts.logger,
      notes: this.parts.notes,
      progress: options.progress ?? noProgress,
      answers: options.answers ?? {},
      resolve: (tok) => scope.resolve(tok),
      tryResolve: (tok) => scope.tryResolve(tok),
    };
  }
}

/** A router sends a call to the vault its `vault_id` names (seed 000); the vault confirms it is that one. */
function assertVault(ownId: string, args: unknown): void {
  const vaultId = (args as { vault_id?: unknown } | null | undefined)?.vault_id;
  if (typeof vaultId !== 'string' || vaultId === ownId) return;
  checkVaultIdLength(vaultId);
  throw new NotFoundError(`Vault '${vaultId}' not found. Available vaults: ${ownId}`, {
    vault_id: vaultId,
    available: [ownId],
  });
}
