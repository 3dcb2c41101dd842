/**
 * The built-in catalogue as the kernel loads it: profiles as plain data, plugins and backends
 * by id, each imported only when a config chooses it (a flint server never runs the
 * card-workflow or markdown-git modules: ~20 ms of start-up). `catalogue.ts` holds the same
 * definitions eagerly for callers that want them all; a test keeps the two in step.
 */
import type { BackendDefinition } from '../kernel/backend.js';
import type { LazyCatalogue } from '../kernel/kernel.js';
import type { PluginDefinition } from '../kernel/plugin.js';
import { agentMemoryProfile } from './agent-memory/index.js';
import { flintProfile } from './flint/index.js';
import { zettelkastenProfile } from './zettelkasten/index.js';

type Loader<T> = () => Promise<T>;
const plugin = <O>(load: Loader<PluginDefinition<O>>) => load as Loader<PluginDefinition<unknown>>;
const backend = <O>(load: Loader<BackendDefinition<O>>) => load as Loader<BackendDefinition<unknown>>;

export const builtinLazyCatalogue: LazyCatalogue = {
  profiles: [flintProfile, zettelkastenProfile, agentMemoryProfile],
  plugins: {
    vaults: plugin(async () => (await import('../plugins/vaults/index.js')).vaultsPlugin),
    'note-types': plugin(async () => (await import('../plugins/note-types/index.js')).noteTypesPlugin),
    notes: plugin(async () => (await import('../plugins/notes/index.js')).notesPlugin),
    'vault-config': plugin(async () => (await import('../plugins/vault-config/index.js')).vaultConfigPlugin),
    schema: plugin(async () => (await import('../plugins/schema/index.js')).schemaPlugin),
    'card-workflow': plugin(async () => (await import('../plugins/card-workflow/index.js')).cardWorkflowPlugin),
    links: plugin(async () => (await import('../plugins/links/index.js')).linksPlugin),
    tags: plugin(async () => (await import('../plugins/tags/index.js')).tagsPlugin),
    search: plugin(async () => (await import('../plugins/search/index.js')).searchPlugin),
    memory: plugin(async () => (await import('../plugins/memory/index.js')).memoryPlugin),
    migration: plugin(async () => (await import('../plugins/migration/index.js')).migrationPlugin),
  },
  backends: {
    'fs-sqlite': backend(async () => (await import('../backends/fs-sqlite/index.js')).fsSqliteBackend),
    'markdown-git': backend(async () => (await import('../backends/markdown-git/index.js')).markdownGitBackend),
  },
};
