/**
 * The plugin contract: a plain object whose `register(ctx)` returns its contribution
 * (services, tools, resources, prompts, hooks, CLI commands, dispose) instead of mutating a
 * shared context. Plugins meet each other only through typed service tokens.
 */
import type { z } from 'zod';
import type { Capability, NoteStore, SearchIndex } from './backend.js';
import type { Token } from './container.js';
import type { HookHandlers } from './hooks.js';
import type { Logger } from './logger.js';
import type { NoteService } from './notes.js';
import type { ProgressReporter } from './progress.js';
import type { AnyTool } from './tool.js';
import type { VaultInfo } from './vault-info.js';

export interface ServiceProvision<T = unknown> {
  token: Token<T>;
  value: T;
}

export function provide<T>(token: Token<T>, value: T): ServiceProvision<T> {
  return { token, value };
}

export interface ResourceDefinition {
  uri: string;
  name: string;
  description: string;
  mimeType?: string;
  read(): Promise<unknown>;
}

export interface PromptDefinition {
  name: string;
  description: string;
  arguments?: Array<{ name: string; description: string; required?: boolean }>;
  get(args: Record<string, string>): Promise<Array<{ role: 'user' | 'assistant'; text: string }>>;
}

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /** The CLI's progress display (a bar on a terminal, nothing otherwise). */
  progress: ProgressReporter;
}

/** A CLI subcommand contributed by a plugin; it runs with the vault already open. */
export interface CliCommandDefinition {
  name: string;
  summary: string;
  usage: string;
  run(argv: string[], io: CliIo): Promise<number>;
}

export interface PluginContribution {
  services?: ServiceProvision[];
  tools?: AnyTool[];
  resources?: ResourceDefinition[];
  prompts?: PromptDefinition[];
  hooks?: HookHandlers;
  cli?: CliCommandDefinition[];
  dispose?: () => unknown;
}

export interface PluginContext<O> {
  pluginId: string;
  options: O;
  vault: VaultInfo;
  logger: Logger;
  store: NoteStore;
  search?: SearchIndex;
  notes: NoteService;
  capabilities: ReadonlySet<Capability>;
  /** Folder of the config file this kernel was configured from; undefined without one. Relative paths in options resolve against it. */
  configDir?: string;
  /** Resolves a service registered by the kernel or by a plugin this one depends on. */
  resolve<T>(token: Token<T>): T;
  tryResolve<T>(token: Token<T>): T | undefined;
}

export interface PluginDefinition<O = unknown> {
  id: string;
  description: string;
  dependsOn?: readonly string[];
  /** Backend capabilities this plugin needs; refused at start-up when the backend lacks one. */
  requires?: readonly Capability[];
  /**
   * CLI commands its contribution will carry, known before any vault opens, so the CLI can
   * choose a profile that has them. `vaultFlag` names the argument that gives the vault folder;
   * `summary` and `usage` are what `notekernel --help` and `notekernel <name> --help` show.
   */
  commands?: ReadonlyArray<{ name: string; vaultFlag?: string; summary?: string; usage?: string }>;
  config?: z.ZodType<O>;
  register(ctx: PluginContext<O>): PluginContribution | Promise<PluginContribution>;
}

export function definePlugin<O>(definition: PluginDefinition<O>): PluginDefinition<O> {
  return definition;
}
