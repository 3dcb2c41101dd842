/**
 * fs-sqlite's SearchIndex over its own SQLite index: ranked words (FTS5, bm25, title weighted
 * above content), structured filters and sorts (search-text.ts), a bounded regex scan
 * (search-regex.ts) and read-only SQL (search-sql.ts). Word and filter searches run on the
 * writer's connection, which answers in a few milliseconds; anything an agent could make run
 * for long runs in the sandbox process, where it can be stopped.
 *
 * The index is written by the store itself (kind `both`), so upsert/remove here only re-sync a
 * note another component hands in.
 */
import type { SearchIndex, SearchPage, SearchQuery, SqlQueryOptions } from '../../kernel/backend.js';
import { NotekernelError, ValidationError } from '../../kernel/errors.js';
import type { SqlParams } from '../../kernel/index-database.js';
import { silentLogger, type Logger } from '../../kernel/logger.js';
import type { Note } from '../../kernel/note.js';
import type { IndexDb } from './index-db.js';
import { toIndexed } from './note-file.js';
import { searchRegex } from './search-regex.js';
import { StatementCache } from './search-rows.js';
import { runSql } from './search-sql.js';
import { searchWords } from './search-text.js';
import { SandboxFailure, SqlSandbox } from './sql-sandbox.js';

export { parseAgentQuery } from './fts-query.js';

export interface FsSqliteSearchIndex extends SearchIndex {
  sql(query: string, params?: SqlParams, options?: SqlQueryOptions): Promise<Array<Record<string, unknown>>>;
}

/**
 * `indexed` resolves when the index rows are up to date (the store's refresh): writes wait for it.
 * `readable` resolves when searches may read the rows as they stand (FsSqliteStore.whenReadable).
 */
export function createSearchIndex(
  db: IndexDb,
  logger: Logger = silentLogger(),
  indexed: () => Promise<void> = async () => {},
  readable: () => Promise<{ lagging?: string }> = async () => (await indexed(), {}),
): FsSqliteSearchIndex {
  const cache = new StatementCache(db.db);
  const sandbox = new SqlSandbox({ dbFile: db.file, logger });
  const pageOf = async (query: SearchQuery): Promise<SearchPage> => {
    if (!query.regex || query.text.trim() === '') return searchWords(cache, query);
    try {
      return await searchRegex(cache, sandbox, query);
    } catch (err) {
      if (err instanceof SandboxFailure) throw new NotekernelError('internal', `The regex scan failed: ${err.message}`);
      throw err;
    }
  };
  return {
    async search(query: SearchQuery): Promise<SearchPage> {
      const { lagging } = await readable();
      if (typeof query.text !== 'string')
        throw new ValidationError('text: give the words to search for (or "").', { field: 'text' });
      const page = await pageOf(query);
      return lagging && !page.notice ? { ...page, notice: lagging } : page;
    },
    async sql(query, params, options) {
      await readable();
      return runSql(sandbox, query, params, options);
    },
    async upsert(note: Note): Promise<void> {
      await indexed();
      db.upsert(toIndexed(note, db.fileState(note.id)?.mtimeMs ?? 0));
    },
    async remove(id: string): Promise<void> {
      await indexed();
      db.remove(id);
    },
    async close(): Promise<void> {
      // The connection closes with the store; the sandbox processes are ours.
      await sandbox.close();
    },
  };
}
