/** The SearchIndex contract run against fs-sqlite on a fresh temp vault. */
import { silentLogger } from '../../kernel/logger.js';
import { fsSqliteBackend, fsSqliteOptions } from '../../backends/fs-sqlite/index.js';
import { removeDir, tempDir } from '../support/temp.js';
import { describeSearchIndexContract } from '../../testing/index.js';

describeSearchIndexContract('fs-sqlite', async () => {
  const root = await tempDir();
  const instance = await fsSqliteBackend.create({
    folder: root,
    options: fsSqliteOptions.parse({}),
    logger: silentLogger(),
    readOnly: false,
  });
  return {
    store: instance.store!,
    search: instance.search!,
    capabilities: fsSqliteBackend.capabilities,
    extensions: fsSqliteBackend.extensions ?? [],
    async close() {
      await instance.search?.close();
      await instance.store?.close();
      await removeDir(root);
    },
  };
});
