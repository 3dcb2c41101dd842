/** What a surface (MCP server, CLI) serves: one vault, or a router over several. */
import type { Logger } from './logger.js';
import type { ProgressReporter } from './progress.js';
import type { PromptDefinition, ResourceDefinition } from './plugin.js';
import type { ToolInfo } from './tool.js';
import type { VaultInfo } from './vault-info.js';

export interface ToolHost {
  readonly info: VaultInfo;
  readonly logger: Logger;
  tools(): ToolInfo[];
  /** Whether `name` is a tool here, without building the listing's JSON schemas. */
  hasTool(name: string): boolean;
  call(name: string, args?: unknown, options?: CallOptions): Promise<unknown>;
  resources(): ResourceDefinition[];
  readResource(uri: string): Promise<unknown>;
  prompts(): PromptDefinition[];
}

/** Per-call extras a surface passes along with the arguments. */
export interface CallOptions {
  progress?: ProgressReporter;
  /** Who asks (an MCP client's `name version`, `cli`); the journal records it. Default `library`. */
  caller?: string;
}
