/**
 * The built-in catalogue: every plugin, backend and profile that ships with notekernel. The
 * kernel receives it as data and knows none of them by name.
 */
import type { Catalogue } from '../kernel/kernel.js';
import { fsSqliteBackend } from '../backends/fs-sqlite/index.js';
import { markdownGitBackend } from '../backends/markdown-git/index.js';
import { hybridSearchBackend } from '../backends/hybrid-search/index.js';
import { keywordSearchBackend } from '../backends/hybrid-search/keyword-search.js';
import { simplenoteBackend } from '../backends/simplenote/index.js';
import { noteTypesPlugin } from '../plugins/note-types/index.js';
import { notesPlugin } from '../plugins/notes/index.js';
import { schemaPlugin } from '../plugins/schema/index.js';
import { vaultConfigPlugin } from '../plugins/vault-config/index.js';
import { vaultsPlugin } from '../plugins/vaults/index.js';
import { cardWorkflowPlugin } from '../plugins/card-workflow/index.js';
import { linksPlugin } from '../plugins/links/index.js';
import { tagsPlugin } from '../plugins/tags/index.js';
import { journalPlugin } from '../plugins/journal/index.js';
import { searchPlugin } from '../plugins/search/index.js';
import { flintProfile } from './flint/index.js';
import { zettelkastenProfile } from './zettelkasten/index.js';
import { agentMemoryProfile } from './agent-memory/index.js';
import { notariumProfile } from './notarium/index.js';
import { simplenoteToolsPlugin } from '../plugins/simplenote-tools/index.js';
import { memoryPlugin } from '../plugins/memory/index.js';
import { migrationPlugin } from '../plugins/migration/index.js';
import { obsidianToolsPlugin } from '../plugins/obsidian-tools/index.js';
import { agentPreferencesPlugin } from '../plugins/agent-preferences/index.js';
import { obsidianProfile } from './obsidian/index.js';

export const builtinCatalogue: Catalogue = {
  plugins: [vaultsPlugin, noteTypesPlugin, notesPlugin, vaultConfigPlugin, schemaPlugin, cardWorkflowPlugin, linksPlugin, tagsPlugin, searchPlugin, memoryPlugin, migrationPlugin, simplenoteToolsPlugin, obsidianToolsPlugin, agentPreferencesPlugin, journalPlugin],
  backends: [fsSqliteBackend, markdownGitBackend, simplenoteBackend, hybridSearchBackend, keywordSearchBackend],
  profiles: [flintProfile, zettelkastenProfile, agentMemoryProfile, notariumProfile, obsidianProfile],
};
