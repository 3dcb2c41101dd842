/**
 * The example backend (examples/memory-backend) through the NoteStore and SearchIndex contract
 * suites: alone, and as the separate search index of an fs-sqlite store.
 */
import { silentLogger } from '../../kernel/logger.js';
import { fsSqliteBackend, fsSqliteOptions } from '../../backends/fs-sqlite/index.js';
import { memoryBackend } from '../../examples/memory-backend/index.js';
import { MemoryKeywordIndex } from '../../examples/memory-backend/search.js';
import { removeDir, tempDir } from '../support/temp.js';
import { describeNoteStoreContract } from '../../testing/index.js';
import { describeSearchIndexContract } from '../../testing/index.js';

async function openMemory() {
  const instance = await memoryBackend.create({ options: {}, logger: silentLogger(), readOnly: false });
  return { instance, store: instance.store!, search: instance.search!, capabilities: memoryBackend.capabilities, extensions: memoryBackend.extensions ?? [], close: async () => instance.store!.close() };
}

describeNoteStoreContract('memory (example)', openMemory);

describeSearchIndexContract('memory (example)', openMemory);

describeSearchIndexContract('memory (example) as the search index of an fs-sqlite store', async () => {
  const root = await tempDir();
  const instance = await fsSqliteBackend.create({ folder: root, options: fsSqliteOptions.parse({}), logger: silentLogger(), readOnly: false });
  return {
    store: instance.store!,
    search: new MemoryKeywordIndex(),
    capabilities: memoryBackend.capabilities,
    async close() {
      await instance.search?.close();
      await instance.store?.close();
      await removeDir(root);
    },
  };
});
