/**
 * The `postgres` storage backend: a vault's notes, journal, search vectors and change feed in
 * PostgreSQL, so processes on many hosts share one knowledge base (issue 30). Chosen by config:
 * `storage: { backend: postgres, options: { url, vault } }`; the URL falls back to DATABASE_URL,
 * then to the PG* variables `pg` reads itself. Many vaults live in one schema, told apart by a
 * `vault` column. Decision 048 records the choices; README.md says what each cost grows with.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import path from 'node:path';
import { type BackendSetting, defineBackend, requireFolder } from '../../kernel/backend.js';
import { BackendUnavailableError } from '../../kernel/errors.js';
import type { Logger } from '../../kernel/index.js';
import { journalWindow, journalWindowOption } from '../../toolkit/files/file-journal.js';
import { embedderChoice, embedderFor } from '../../toolkit/embedding/embedder-option.js';
import { DEFAULT_MIN_SIMILARITY } from '../../toolkit/embedding/fusion.js';
import { QueryVectors } from '../../toolkit/embedding/query-vectors.js';
import { createVaultFiles } from '../../toolkit/files/vault-files.js';
import { WriteLocks } from '../../toolkit/files/write-locks.js';
import { ChangeFeed } from './change-feed.js';
import { openPool, type PgPool, redactUrl, storeError } from './driver.js';
import { PgJournal } from './journal.js';
import { LATEST_VERSION, migrate, SCHEMA_NAME, schemaVersion } from './migrations.js';
import { PgKeywordIndex } from './search.js';
import { PgVectorIndex } from './vector-search.js';
import { EmbedWorker, ensureVectorTable } from './vectors.js';
import { summaryOf } from './note-rows.js';
import { PgNoteStore } from './store.js';
import { filesWithNotes } from './vault-files.js';

export const postgresOptions = z
  .object({
    url: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'a postgres:// connection URL')
      .optional()
      .describe('the database; without it DATABASE_URL, then the PG* environment variables'),
    vault: z
      .string()
      .regex(/^[\w.-]{1,100}$/, 'letters, digits, "_", "-" and "."')
      .default('default')
      .describe('the vault inside the database (many vaults share one schema)'),
    schema: z
      .string()
      .regex(SCHEMA_NAME, 'a plain lower-case SQL name')
      .default('notekernel')
      .describe("the schema holding notekernel's tables"),
    ssl: z
      .union([
        z.boolean(),
        z
          .object({
            rejectUnauthorized: z.boolean().optional(),
            ca: z.string().optional().describe('PEM text of the CA certificate'),
            cert: z.string().optional(),
            key: z.string().optional(),
          })
          .strict(),
      ])
      .optional()
      .describe('TLS, passed to node-postgres as it is (or set sslmode in the URL)'),
    defaultType: z.string().min(1).optional().describe('type a note created without one gets (general when unset)'),
    migrate: z
      .boolean()
      .default(true)
      .describe(
        'apply pending schema migrations at open (false: refuse a schema that is behind; run `notekernel migrate-db`)',
      ),
    poolSize: z
      .number()
      .int()
      .min(2)
      .max(100)
      .default(8)
      .describe('connections this process keeps open (plus one for the feed)'),
    pollMs: z.number().int().min(50).max(60_000).default(1_000).describe("the change feed's fallback poll"),
    feedDays: z
      .number()
      .min(1)
      .default(7)
      .describe("the change feed's rows older than this are dropped when a vault opens"),
    journal: journalWindowOption,
    vectors: z
      .boolean()
      .optional()
      .describe(
        'search by meaning too (pgvector, hybrid by default): passages embedded by a queue every serving process works; on when an embedder is given, else off',
      ),
    embedder: embedderChoice
      .optional()
      .describe(
        'use-lite (default when vectors are on; offline, 512-d), hashed (tests), or an OpenAI-compatible endpoint { url, model, dimension } — the same on every host of a schema',
      ),
    embedThreads: z
      .number()
      .int()
      .min(0)
      .max(16)
      .default(1)
      .describe('threads running the bundled model (0: the main thread)'),
    minSimilarity: z
      .number()
      .min(-1)
      .max(1)
      .default(DEFAULT_MIN_SIMILARITY)
      .describe('cosine under which a passage is not taken as about the query'),
    candidates: z
      .number()
      .int()
      .min(10)
      .max(1_000)
      .default(200)
      .describe('nearest passages (HNSW) the semantic leg ranks'),
  })
  .strict();

/** Vectors are on when asked for, or when an embedder is named without saying `vectors: false`. */
export function vectorsOn(options: Pick<PostgresOptions, 'vectors' | 'embedder'>): boolean {
  return options.vectors ?? options.embedder !== undefined;
}

export type PostgresOptions = z.infer<typeof postgresOptions>;

/** The URL a vault connects to: its option, else DATABASE_URL; undefined leaves `pg` to the PG* variables. */
export function connectionUrl(options: Pick<PostgresOptions, 'url'>): string | undefined {
  return options.url ?? (process.env.DATABASE_URL || undefined);
}

export const postgresBackend = defineBackend<PostgresOptions>({
  id: 'postgres',
  kind: 'both',
  description:
    'Notes in PostgreSQL, shared by every process and host: compare-and-swap writes, a change feed, tsvector search.',
  // The folder keeps plugin-owned files (type descriptions, the vault config); notes are in the database.
  folder: 'required',
  // `vectors` is what the backend can serve; a vault opened with vectors off refuses semantic and
  // hybrid queries with a CapabilityError naming the option (decision 048).
  capabilities: ['typed-notes', 'free-metadata', 'files', 'watch', 'journal', 'full-text', 'metadata-query', 'vectors'],
  extensions: ['batch-update', 'background-work'],
  options: postgresOptions as z.ZodType<PostgresOptions>,
  settings(options): BackendSetting[] {
    const env = (name: string) => process.env[name] || undefined;
    const url = connectionUrl(options);
    const source = options.url ? 'config' : env('DATABASE_URL') ? 'environment' : 'unset';
    return [
      {
        name: 'DATABASE_URL',
        purpose: 'the database, when storage.options.url is not set',
        ...(url ? { value: redactUrl(url) } : {}),
        source,
        secret: true,
      },
      ...['PGHOST', 'PGPORT', 'PGDATABASE', 'PGUSER', 'PGPASSWORD', 'PGSSLMODE'].map((name) => ({
        name,
        purpose: 'read by node-postgres for what the URL leaves out',
        ...(env(name) !== undefined ? { value: env(name) } : {}),
        source: env(name) !== undefined ? ('environment' as const) : ('unset' as const),
        ...(name === 'PGPASSWORD' ? { secret: true } : {}),
      })),
    ];
  },
  async create(ctx) {
    const { options, logger } = ctx;
    const root = requireFolder(ctx, 'postgres');
    const url = connectionUrl(options);
    const { pool, config } = openPool(url, options.ssl, logger, options.poolSize);
    const S = `"${options.schema}"`;
    let feed: ChangeFeed | undefined;
    try {
      // A vault opened read-only changes nothing, the schema included.
      if (options.migrate && !ctx.readOnly) {
        const report = await migrate(pool, options.schema);
        if (report.applied.length)
          logger.info({ schema: options.schema, from: report.from, to: report.to }, 'postgres schema migrated');
      } else {
        const version = await schemaVersion(pool, options.schema);
        if (version !== LATEST_VERSION)
          throw new BackendUnavailableError(
            `The database schema "${options.schema}" is at version ${version}, this notekernel needs ${LATEST_VERSION}: run \`notekernel migrate-db\`.`,
            { backend: 'postgres', schema_version: version, needed_version: LATEST_VERSION },
          );
      }
      // The feed is read forward from "now" by each process that opens: old rows serve no one.
      if (!ctx.readOnly)
        await pool.query(`DELETE FROM ${S}.changes WHERE vault = $1 AND at < now() - make_interval(days => $2)`, [
          options.vault,
          options.feedDays,
        ]);
      const table = {
        S,
        vault: options.vault,
        origin: randomUUID(),
        channelKey: `${options.schema}:${options.vault}`,
      };
      const journal = new PgJournal(pool, S, options.vault, journalWindow(options.journal), url, logger);
      let store: PgNoteStore | undefined;
      feed = new ChangeFeed({
        pool,
        config,
        table,
        logger,
        pollMs: options.pollMs,
        read: (id) => store!.get(id),
        summarize: (row) => summaryOf(row, root),
        onSession: async (session) => {
          const before = journal.owner;
          journal.owner = session;
          // This process's open entries follow it to its new session, so no other process takes them for a dead one's.
          if (before !== 'unknown')
            await pool
              .query(`UPDATE ${S}.journal SET owner = $3 WHERE vault = $1 AND owner = $2 AND state = 'pending'`, [
                options.vault,
                before,
                session,
              ])
              .catch((err: unknown) =>
                logger.warn({ err: storeError(err, url) }, 'journal: owner not moved to the new session'),
              );
        },
      });
      const locks = new WriteLocks(root, path.join(root, '.notekernel', 'locks'));
      store = new PgNoteStore({
        pool,
        root,
        files: (owner) => filesWithNotes(createVaultFiles(root, locks), () => owner),
        onClose: () => locks.close(),
        table,
        url,
        defaultType: options.defaultType ?? 'general',
        ...(options.defaultType ? { configuredType: options.defaultType } : {}),
        logger,
        journal,
        feed,
      });
      await feed.start();
      logger.info({ url: redactUrl(url), schema: options.schema, vault: options.vault }, 'postgres vault open');
      if (ctx.servesSearch === false) return { store };
      const keyword = new PgKeywordIndex(pool, S, options.vault, url, logger, root);
      if (!vectorsOn(options)) return { store, search: keyword };
      return {
        store,
        search: await openVectors(pool, options, table.origin, keyword, feed, url, root, logger, ctx.readOnly === true),
      };
    } catch (err) {
      await feed?.close();
      await pool.end().catch(() => undefined);
      throw storeError(err, url);
    }
  },
});

/** The vector search and the embedding worker this process runs: woken at open, by the feed, and every few seconds. */
async function openVectors(
  pool: PgPool,
  options: PostgresOptions,
  owner: string,
  keyword: PgKeywordIndex,
  feed: ChangeFeed,
  url: string | undefined,
  root: string,
  logger: Logger,
  readOnly: boolean,
): Promise<PgVectorIndex> {
  const embedder = embedderFor(options.embedder ?? 'use-lite', options.embedThreads, logger);
  try {
    // A read-only process changes nothing: it neither makes the table nor embeds (a writer's process does).
    if (!readOnly) await ensureVectorTable(pool, options.schema, embedder);
  } catch (err) {
    await embedder.close?.();
    throw err;
  }
  const S = `"${options.schema}"`;
  const worker = new EmbedWorker({ pool, S, vault: options.vault, embedder, owner, logger });
  const wake = () => void (readOnly ? undefined : worker.wake());
  const unsubscribe = feed.subscribe(wake);
  // Leases of a process that died run out without any write to wake anyone: a poll takes them.
  const timer = setInterval(wake, Math.max(5_000, options.pollMs));
  timer.unref();
  wake();
  const index = new PgVectorIndex({
    keyword,
    worker,
    embedder,
    queryVectors: new QueryVectors(embedder),
    minSimilarity: options.minSimilarity,
    candidates: options.candidates,
    S,
    vault: options.vault,
    url,
    root,
  });
  const close = index.close.bind(index);
  index.close = async () => {
    clearInterval(timer);
    unsubscribe();
    await close();
  };
  return index;
}
