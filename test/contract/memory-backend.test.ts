/**
 * The example backend's search index (examples/memory-backend) through the SearchIndex contract
 * suite as the separate search index of an fs-sqlite store. The example alone runs both suites in
 * its own test (examples/memory-backend/memory-backend.test.ts), through `notekernel/testing`.
 */
import { silentLogger } from '../../kernel/logger.js';
import { fsSqliteBackend, fsSqliteOptions } from '../../backends/fs-sqlite/index.js';
import { memoryBackend } from '../../examples/memory-backend/index.js';
import { MemoryKeywordIndex } from '../../examples/memory-backend/search.js';
import { removeDir, tempDir } from '../support/temp.js';
import { describeSearchIndexContract } from '../../testing/index.js';

describeSearchIndexContract('memory (example) as the search index of an fs-sqlite store', async () => {
  const root = await tempDir();
  const instance = await fsSqliteBackend.create({
    folder: root,
    options: fsSqliteOptions.parse({}),
    logger: silentLogger(),
    readOnly: false,
  });
  return {
    store: instance.store!,
    search: new MemoryKeywordIndex(),
    capabilities: memoryBackend.capabilities,
    extensions: memoryBackend.extensions ?? [],
    async close() {
      await instance.search?.close();
      await instance.store?.close();
      await removeDir(root);
    },
  };
});
