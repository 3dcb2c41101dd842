/**
 * An example backend: notes in memory, searched by keyword. Kind `both`, so it serves a vault on
 * its own (`storage: { backend: memory }`) or only its search beside another store
 * (`search: { backend: memory }`, reconciled with that store at every open). It keeps no folder:
 * a vault on it is named by its id. Adding a backend is: copy this folder, change the two
 * classes, and run the contract suites against it (memory-backend.test.ts, from `notekernel/testing`).
 */
import { z } from 'zod';
import { defineBackend } from 'notekernel';
import { MemoryKeywordIndex } from './search.js';
import { MemoryStore } from './store.js';

export const memoryBackendOptions = z.object({}).strict();

export const memoryBackend = defineBackend<z.infer<typeof memoryBackendOptions>>({
  id: 'memory',
  kind: 'both',
  description: 'Notes in memory, searched by keyword; gone when the process ends. An example to copy.',
  folder: 'none',
  capabilities: ['free-metadata', 'full-text'],
  // Nothing outside this process can change a Map: no `refresh`. As a search index apart from
  // its store it catches up with that store at every open (`reconcile`).
  extensions: ['reconcile'],
  options: memoryBackendOptions,
  async create() {
    const search = new MemoryKeywordIndex();
    // As a vault's store it keeps its own index in step; as only the search backend beside
    // another store, the kernel feeds `search` and this store stays empty.
    return { store: new MemoryStore(search), search };
  },
});
