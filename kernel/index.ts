/**
 * The library surface: `createKernel()` → `kernel.openVault(dir)` → `vault.call(tool, args)`,
 * plus the contracts for writing plugins and backends.
 */
export { Kernel, type KeepIndexInStep, type KernelExtras, type OpenVaultOptions, type VaultNaming } from './kernel.js';
export { Vault } from './vault.js';
export type { VaultInfo } from './vault-info.js';
export { token, type Token } from './container.js';
export { LOGGER, NOTES, NOTE_STORE, SEARCH_INDEX, VAULT_INFO } from './tokens.js';
export { definePlugin, provide } from './plugin.js';
export type {
  PluginDefinition,
  PluginContext,
  PluginContribution,
  ResourceDefinition,
  PromptDefinition,
  CliCommandDefinition,
  CliCommandDeclaration,
  CliInput,
  CliIo,
} from './plugin.js';
export {
  defineBackend,
  requireFolder,
  canonicalCapability,
  refreshStore,
  CAPABILITIES,
  CAPABILITY_ROLE,
  DEPRECATED_CAPABILITIES,
  SEARCH_MODES,
  EXTENSIONS,
} from './backend.js';
export type {
  BackendDefinition,
  BackendContext,
  BackendFolder,
  BackendInstance,
  Capability,
  CapabilityName,
  DeprecatedCapability,
  Extension,
  ExternalChange,
  NoteStore,
  NoteUpdate,
  ReconcileReport,
  ReconcileSource,
  RefreshReport,
  RemoteSync,
  RemoteSyncReport,
  RemoteSyncStats,
  BackendSetting,
  SearchHit,
  SearchIndex,
  SearchMode,
  VaultFiles,
  SearchQuery,
  SearchPage,
  BackgroundReport,
} from './backend.js';
export { defineTool } from './tool.js';
export type { ToolDefinition, ToolContext, ToolInfo, ToolAnnotations, ToolArgs, ToolResult } from './tool.js';
export type { HookName, HookPayloads, HookHandlers, NoteDraft, NoteEvent } from './hooks.js';
export type { Note, NewNote, NoteChange, NoteEdit, NoteSummary, Metadata, MetadataValue, ListQuery } from './note.js';
export type { NoteService } from './notes.js';
export * from './errors.js';
export type { ResolvedConfig } from './config/schema.js';
export { silentLogger, type Logger } from './logger.js';
