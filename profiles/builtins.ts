/**
 * The built-in catalogue as the kernel loads it: profiles as plain data, plugins and backends
 * by id, each imported only when a config chooses it (a flint server never runs the
 * card-workflow or markdown-git modules: ~20 ms of start-up). This is the one list:
 * `catalogue.ts`, the same definitions imported whole for callers that want them all, is
 * generated from it by `node scripts/catalogue.mjs` (keep each loader in the form below).
 */
import type { LazyCatalogue } from './catalogue-types.js';
import { agentMemoryProfile } from './agent-memory/index.js';
import { flintProfile } from './flint/index.js';
import { notariumProfile } from './notarium/index.js';
import { zettelkastenProfile } from './zettelkasten/index.js';
import { obsidianProfile } from './obsidian/index.js';

export const builtinLazyCatalogue: LazyCatalogue = {
  profiles: [flintProfile, zettelkastenProfile, agentMemoryProfile, notariumProfile, obsidianProfile],
  plugins: {
    vaults: async () => (await import('../plugins/vaults/index.js')).vaultsPlugin,
    'note-types': async () => (await import('../plugins/note-types/index.js')).noteTypesPlugin,
    notes: async () => (await import('../plugins/notes/index.js')).notesPlugin,
    'vault-config': async () => (await import('../plugins/vault-config/index.js')).vaultConfigPlugin,
    schema: async () => (await import('../plugins/schema/index.js')).schemaPlugin,
    'card-workflow': async () => (await import('../plugins/card-workflow/index.js')).cardWorkflowPlugin,
    links: async () => (await import('../plugins/links/index.js')).linksPlugin,
    tags: async () => (await import('../plugins/tags/index.js')).tagsPlugin,
    search: async () => (await import('../plugins/search/index.js')).searchPlugin,
    memory: async () => (await import('../plugins/memory/index.js')).memoryPlugin,
    migration: async () => (await import('../plugins/migration/index.js')).migrationPlugin,
    'simplenote-tools': async () => (await import('../plugins/simplenote-tools/index.js')).simplenoteToolsPlugin,
    'obsidian-tools': async () => (await import('../plugins/obsidian-tools/index.js')).obsidianToolsPlugin,
    'agent-preferences': async () => (await import('../plugins/agent-preferences/index.js')).agentPreferencesPlugin,
    journal: async () => (await import('../plugins/journal/index.js')).journalPlugin,
  },
  backends: {
    'fs-sqlite': async () => (await import('../backends/fs-sqlite/index.js')).fsSqliteBackend,
    'markdown-git': async () => (await import('../backends/markdown-git/index.js')).markdownGitBackend,
    'hybrid-search': async () => (await import('../backends/hybrid-search/index.js')).hybridSearchBackend,
    'keyword-search': async () => (await import('../backends/hybrid-search/keyword-search.js')).keywordSearchBackend,
    simplenote: async () => (await import('../backends/simplenote/index.js')).simplenoteBackend,
    postgres: async () => (await import('../backends/postgres/index.js')).postgresBackend,
  },
};
