/**
 * hybrid-search's postgres engine (PostgreSQL + pgvector) through the SearchIndex contract suite,
 * as the separate index of an fs-sqlite store, the hashed embedder standing in for the model.
 * Needs a server: `.ci/postgres start` exports NOTEKERNEL_TEST_PG_URL (`.ci/run` does this).
 * Without one the suite is skipped and says why; under CI=true that is a failure.
 */
import { describe, it } from 'vitest';
import { fsSqliteBackend, fsSqliteOptions } from '../../backends/fs-sqlite/index.js';
import { hybridSearchBackend, hybridSearchOptions } from '../../backends/hybrid-search/index.js';
import { silentLogger } from '../../kernel/logger.js';
import { dropSchema, freshSchema, PG_URL, postgresUnavailable } from '../support/postgres.js';
import { removeDir, tempDir } from '../support/temp.js';
import { describeSearchIndexContract } from '../../testing/index.js';

const unavailable = postgresUnavailable();

if (unavailable) {
  if (process.env.CI === 'true') {
    describe('SearchIndex contract: hybrid-search on PostgreSQL + pgvector', () => {
      it('has a PostgreSQL server to run against', () => {
        throw new Error(`CI must run the postgres engine's contract suite, but ${unavailable}.`);
      });
    });
  } else {
    console.warn(`SKIPPED: hybrid-search postgres engine contract suite: ${unavailable}.`);
    describe.skip(`SearchIndex contract: hybrid-search on PostgreSQL + pgvector (skipped: ${unavailable})`, () => {
      it('needs a server', () => undefined);
    });
  }
} else {
  describeSearchIndexContract('hybrid-search on PostgreSQL + pgvector beside an fs-sqlite store', async () => {
    const root = await tempDir();
    const schema = freshSchema();
    const logger = silentLogger();
    const storage = await fsSqliteBackend.create({
      folder: root,
      options: fsSqliteOptions.parse({}),
      logger,
      readOnly: false,
    });
    const hybrid = await hybridSearchBackend.create({
      folder: root,
      options: hybridSearchOptions.parse({ embedder: 'hashed', engine: 'postgres', url: PG_URL, schema }),
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
        await dropSchema(schema);
        await removeDir(root);
      },
    };
  });
}
