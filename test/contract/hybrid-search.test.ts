/**
 * The hybrid-search backend through the SearchIndex contract suite, as the separate index of an
 * fs-sqlite store, its vectors from the deterministic hashed embedder (no model to load): once in
 * the default mode (hybrid: keyword and vectors fused), and once in memory with no folder.
 */
import { silentLogger } from '../../kernel/logger.js';
import { fsSqliteBackend, fsSqliteOptions } from '../../backends/fs-sqlite/index.js';
import { hybridSearchBackend, hybridSearchOptions } from '../../backends/hybrid-search/index.js';
import { keywordSearchBackend, keywordSearchOptions } from '../../backends/hybrid-search/keyword-search.js';
import { removeDir, tempDir } from '../support/temp.js';
import { describeSearchIndexContract } from '../../testing/index.js';

async function openBeside(withFolder: boolean) {
  const root = await tempDir();
  const logger = silentLogger();
  const storage = await fsSqliteBackend.create({
    folder: root,
    options: fsSqliteOptions.parse({}),
    logger,
    readOnly: false,
  });
  const hybrid = await hybridSearchBackend.create({
    ...(withFolder ? { folder: root } : {}),
    options: hybridSearchOptions.parse({ embedder: 'hashed' }),
    logger,
    readOnly: false,
  });
  return {
    store: storage.store!,
    search: hybrid.search!,
    capabilities: hybridSearchBackend.capabilities,
    extensions: hybridSearchBackend.extensions ?? [],
    async close() {
      await hybrid.search?.close();
      await storage.search?.close();
      await storage.store?.close();
      await removeDir(root);
    },
  };
}

describeSearchIndexContract('hybrid-search as the search index of an fs-sqlite store', () => openBeside(true));

describeSearchIndexContract('hybrid-search in memory (no folder) beside an fs-sqlite store', () => openBeside(false));

describeSearchIndexContract('keyword-search (hybrid-search without a model) beside an fs-sqlite store', async () => {
  const root = await tempDir();
  const logger = silentLogger();
  const storage = await fsSqliteBackend.create({
    folder: root,
    options: fsSqliteOptions.parse({}),
    logger,
    readOnly: false,
  });
  const keywords = await keywordSearchBackend.create({
    folder: root,
    options: keywordSearchOptions.parse({}),
    logger,
    readOnly: false,
  });
  return {
    store: storage.store!,
    search: keywords.search!,
    capabilities: keywordSearchBackend.capabilities,
    extensions: keywordSearchBackend.extensions ?? [],
    async close() {
      await keywords.search?.close();
      await storage.search?.close();
      await storage.store?.close();
      await removeDir(root);
    },
  };
});
