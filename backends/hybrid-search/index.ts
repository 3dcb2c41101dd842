/**
 * The `hybrid-search` backend: a search index beside any store (`search: { backend:
 * hybrid-search }`), finding notes by keyword (SQLite FTS5), by meaning (sentence vectors), or
 * both fused. Engine `sqlite` (default): its file lives in the vault's metadata folder; without
 * a folder it is kept in memory. Engine `postgres`: PostgreSQL + pgvector at `url`, the same
 * passages, embedder and fusion contract (decision 023). The default embedder is Universal Sentence Encoder lite, shipped inside an npm package
 * and loaded on the first embed: nothing is downloaded. Decision 018 records the measurements;
 * `embedder: { url, model, dimension }` uses an OpenAI-compatible endpoint instead (decision 036).
 */
import path from 'node:path';
import { z } from 'zod';
import { defineBackend } from '../../kernel/index.js';
import { embedderFor, embedderOption } from '../../toolkit/embedding/embedder-option.js';
import { HybridSearchIndex } from './hybrid-index.js';
import { openInVault } from './index-db.js';
import { PgHybridIndex } from './postgres/pg-index.js';
import { SCHEMA_NAME } from './postgres/pg-schema.js';
import { DEFAULT_MIN_SIMILARITY } from './search.js';

export const hybridSearchOptions = z
  .object({
    engine: z
      .enum(['sqlite', 'postgres'])
      .default('sqlite')
      .describe(
        "sqlite: in the vault's own index file (vectors scanned in memory); postgres: PostgreSQL + pgvector at `url` (decision 023)",
      ),
    url: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'a postgres:// connection URL')
      .optional()
      .describe('engine postgres: the database (needs the pgvector extension)'),
    schema: z
      .string()
      .regex(SCHEMA_NAME, 'a plain lower-case SQL name')
      .default('notekernel')
      .describe("engine postgres: the schema holding this vault's tables (one vault per schema)"),
    candidates: z
      .number()
      .int()
      .min(10)
      .max(1_000)
      .default(200)
      .describe('engine postgres: nearest passages (HNSW) the semantic leg ranks'),
    metaDir: z
      .string()
      .regex(/^\.[\w.-]+$/, 'a hidden folder name such as .notekernel')
      .default('.notekernel')
      .describe('metadata folder inside the vault'),
    indexFile: z
      .string()
      .regex(/^[\w.-]+$/, 'a file name')
      .default('hybrid.db')
      .describe('the index file inside the metadata folder'),
    indexDir: z
      .string()
      .min(1)
      .optional()
      .describe(
        "a folder for the index file instead of the vault's metadata folder (seed 004's CHROMA_PATH); one vault per folder",
      ),
    embedder: embedderOption,
    minSimilarity: z
      .number()
      .min(-1)
      .max(1)
      .default(DEFAULT_MIN_SIMILARITY)
      .describe('cosine under which a passage is not taken as about the query'),
    fusionKeywords: z
      .enum(['all', 'any'])
      .default('any')
      .describe(
        "hybrid mode's keyword leg for a question: any content word, passages with all of them first (any), or only passages with all of them (all)",
      ),
    maxChunkChars: z
      .number()
      .int()
      .min(200)
      .max(20_000)
      .default(1_000)
      .describe('longest passage embedded as one vector'),
    embedThreads: z
      .number()
      .int()
      .min(0)
      .max(16)
      .default(1)
      .describe(
        'worker threads that run the model (0: the main thread, which then stops serving while a batch embeds; each thread holds its own ~100 MB copy)',
      ),
    vectorWaitMs: z
      .number()
      .int()
      .min(0)
      .max(60_000)
      .default(2_000)
      .describe(
        "longest a search by meaning waits for a just-written note's vectors before answering from what is ready",
      ),
  })
  .strict()
  .superRefine((options, ctx) => {
    if (options.engine === 'postgres' && options.url === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['url'],
        message: 'engine "postgres" needs a url (postgres://user@host:port/database)',
      });
    // pgvector's HNSW index takes vectors of up to 2,000 dimensions.
    if (options.engine === 'postgres' && typeof options.embedder === 'object' && options.embedder.dimension > 2_000) {
      ctx.addIssue({
        code: 'custom',
        path: ['embedder', 'dimension'],
        message:
          'engine "postgres" indexes vectors of at most 2,000 dimensions (pgvector HNSW); choose a smaller model',
      });
    }
  });

export type HybridSearchOptions = z.infer<typeof hybridSearchOptions>;

export const hybridSearchBackend = defineBackend<HybridSearchOptions>({
  id: 'hybrid-search',
  kind: 'search',
  description:
    'Keyword (FTS5) and semantic (sentence vectors) search fused by score, beside any store; an offline model.',
  folder: 'optional',
  capabilities: ['full-text', 'vectors'],
  extensions: ['reconcile', 'background-work'],
  options: hybridSearchOptions,
  async create(ctx) {
    const options = ctx.options;
    const embedder = embedderFor(options.embedder, options.embedThreads, ctx.logger);
    // An endpoint takes the user's batch size per request; the queue hands it that many passages.
    const embedBatch = typeof options.embedder === 'object' ? { embedBatch: options.embedder.batchSize } : {};
    const tuning = {
      minSimilarity: options.minSimilarity,
      fusionKeywords: options.fusionKeywords,
      maxChunkChars: options.maxChunkChars,
      vectorWaitMs: options.vectorWaitMs,
      ...embedBatch,
    };
    if (options.engine === 'postgres') {
      const search = await PgHybridIndex.open({
        url: options.url!,
        schema: options.schema,
        candidates: options.candidates,
        embedder,
        logger: ctx.logger,
        ...tuning,
      });
      return { search };
    }
    // indexDir: the file straight in that folder (relative: to the working directory), made if missing.
    const where =
      options.indexDir === undefined
        ? ctx
        : { folder: path.resolve(options.indexDir), ...(ctx.faults ? { faults: ctx.faults } : {}) };
    const search = await openInVault(
      where,
      options.indexDir === undefined ? options.metaDir : '.',
      options.indexFile,
      (file) => new HybridSearchIndex({ file, embedder, logger: ctx.logger, ...tuning }),
    );
    return { search };
  },
});
