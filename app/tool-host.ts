/** What a surface (MCP server, CLI) serves: one vault, or a router over several. */
import type { NoteEvent } from '../kernel/hooks.js';
import type { Logger } from '../kernel/logger.js';
import type { PromptDefinition, ResourceDefinition } from '../kernel/plugin.js';
import type { ToolInfo } from '../kernel/tool.js';
import type { CallOptions } from '../kernel/vault.js';
import type { VaultInfo } from '../kernel/vault-info.js';

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
  /** Note changes in the served vault(s), by whoever made them; a host without it announces nothing. */
  onNoteChange?(listener: (event: NoteEvent, vaultId: string) => void): () => void;
}
