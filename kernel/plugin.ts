/**
 * The plugin contract: a plain object whose `register(ctx)` returns its contribution
 * (services, tools, resources, prompts, hooks, CLI commands, dispose) instead of mutating a
 * shared context. Plugins meet each other only through typed service tokens.
 */
import type { z } from 'zod';
import type { Capability, CapabilityName, NoteStore, SearchIndex } from './backend.js';
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
  /** The resource's URI; with `template`, an RFC 6570 level-1 template (kernel/resource-template.ts). */
  uri: string;
  /** Listed by resources/templates/list instead of resources/list; read for every URI it matches. */
  template?: boolean;
  name: string;
  description: string;
  mimeType?: string;
  /** `params`: the template's values for this URI; `vault`: the vault read from, to call its tools. */
  read(params: Record<string, string>, vault: ResourceVault): Promise<unknown>;
}

/** What a resource read may use of its vault: its tools, through the one invoke() path. */
export interface ResourceVault {
  call(name: string, args?: unknown): Promise<unknown>;
}

export interface PromptDefinition {
  name: string;
  description: string;
  arguments?: Array<{ name: string; description: string; required?: boolean }>;
  /** `answers`: what the user answered to this prompt's earlier questions (see InputNeededError). */
  get(
    args: Record<string, string>,
    context?: { answers: Readonly<Record<string, Record<string, unknown> | null>> },
  ): Promise<Array<{ role: 'user' | 'assistant'; text: string }>>;
}

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  /** The CLI's progress display (a bar on a terminal, nothing otherwise). */
  progress: ProgressReporter;
}

/** One option of a plugin's CLI command, in commander's flag syntax (`--dry-run`, `--note <id>`). */
export interface CliOptionDeclaration {
  flags: string;
  description: string;
}

/** A plugin's CLI command as the CLI parses and documents it (`--help`) before any vault opens. */
export interface CliCommandDeclaration {
  name: string;
  summary?: string;
  /** Positional arguments in commander's syntax: `<step>` required, `[path]` optional. */
  arguments?: ReadonlyArray<{ name: string; description: string }>;
  options?: readonly CliOptionDeclaration[];
  /** The option whose value is the vault folder when `--vault` is not given (`--root-dir`). */
  vaultOption?: string;
}

/** What the CLI parsed: positional arguments in order; options by name in camel case (`--root-dir` → `rootDir`). */
export interface CliInput {
  args: readonly string[];
  options: Readonly<Record<string, string | boolean | undefined>>;
}

/** A CLI subcommand contributed by a plugin; it runs with the vault already open. */
export interface CliCommandDefinition {
  name: string;
  summary: string;
  run(input: CliInput, io: CliIo): Promise<number>;
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
  requires?: readonly CapabilityName[];
  /** CLI commands its contribution will carry, known before any vault opens (the CLI picks a profile by them). */
  commands?: readonly CliCommandDeclaration[];
  config?: z.ZodType<O>;
  register(ctx: PluginContext<O>): PluginContribution | Promise<PluginContribution>;
}

export function definePlugin<O>(definition: PluginDefinition<O>): PluginDefinition<O> {
  return definition;
}
