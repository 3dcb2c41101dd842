/**
 * The built-in catalogue: every plugin, backend and profile that ships with notekernel. The
 * kernel receives it as data and knows none of them by name.
 */
import type { Catalogue } from '../kernel/kernel.js';
import { fsSqliteBackend } from '../backends/fs-sqlite/index.js';
import { noteTypesPlugin } from '../plugins/note-types/index.js';
import { notesPlugin } from '../plugins/notes/index.js';
import { vaultsPlugin } from '../plugins/vaults/index.js';
import { cardWorkflowPlugin } from '../plugins/card-workflow/index.js';
import { flintProfile } from './flint/index.js';
import { zettelkastenProfile } from './zettelkasten/index.js';

export const builtinCatalogue: Catalogue = {
  plugins: [vaultsPlugin, noteTypesPlugin, notesPlugin, cardWorkflowPlugin],
  backends: [fsSqliteBackend],
  profiles: [flintProfile, zettelkastenProfile],
};
