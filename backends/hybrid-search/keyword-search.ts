/**
 * The `keyword-search` backend: hybrid-search's embedded engine without a model (`search: {
 * backend: keyword-search }`). Passages of every note in an FTS5 table beside any store, ranked by
 * BM25 (title × 10, heading × 3), questions and the query syntax as the toolkit's parser reads them
 * (docs/search-syntax.md). Nothing is embedded and nothing is loaded but SQLite: agent-memory's
 * `memory_search` answers from it. A vault that wants meaning too takes `hybrid-search` instead.
 */
import { z } from 'zod';
import { defineBackend } from '../../kernel/index.js';
import { HybridSearchIndex } from './hybrid-index.js';
import { openInVault } from './index-db.js';

export const keywordSearchOptions = z
  .object({
    metaDir: z
      .string()
      .regex(/^\.[\w.-]+$/, 'a hidden folder name such as .notekernel')
      .default('.notekernel')
      .describe('metadata folder inside the vault'),
    indexFile: z
      .string()
      .regex(/^[\w.-]+$/, 'a file name')
      .default('keywords.db')
      .describe('the index file inside the metadata folder'),
    maxChunkChars: z.number().int().min(200).max(20_000).default(1_000).describe('longest passage indexed as one'),
  })
  .strict();

export type KeywordSearchOptions = z.infer<typeof keywordSearchOptions>;

export const keywordSearchBackend = defineBackend<KeywordSearchOptions>({
  id: 'keyword-search',
  kind: 'search',
  description: 'Keyword search (SQLite FTS5, BM25) beside any store: questions and the query syntax, no model.',
  folder: 'optional',
  capabilities: ['full-text'],
  extensions: ['reconcile', 'background-work'],
  options: keywordSearchOptions,
  async create(ctx) {
    const search = await openInVault(
      ctx,
      ctx.options.metaDir,
      ctx.options.indexFile,
      (file) => new HybridSearchIndex({ file, logger: ctx.logger, maxChunkChars: ctx.options.maxChunkChars }),
    );
    return { search };
  },
});
