/**
 * simplenote (seed 003, MCP Notarium): notes live in a Simplenote account, reached over the
 * Simperium HTTP API; a local sql.js cache (FTS4) serves listings and search. Kind `both`: the
 * store and its search index over the cache. The folder, when given, holds the cache; else the
 * platform cache folder (NOTARIUM_CACHE_DIR, else XDG_CACHE_HOME/notekernel/simplenote).
 * Credentials come from SIMPLENOTE_USERNAME / SIMPLENOTE_PASSWORD, never from a config file.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { defineBackend, type BackendDefinition } from '../../kernel/backend.js';
import { BackendUnavailableError, NotekernelError } from '../../kernel/errors.js';
import { openCacheDatabase, saveCacheDatabase } from './cache/cache-file.js';
import { NoteCache } from './cache/note-cache.js';
import { intervalFromEnv, simperiumConfigFromEnv, type SimperiumConfig } from './client/config.js';
import { SimperiumClient } from './client/simperium-client.js';
import {
  describeSettings,
  dotenvFile,
  requireCredentials,
  resolveSettings,
  SETTING_NAMES,
  type SettingValues,
} from './settings.js';
import { SimplenoteStore } from './store.js';
import { Syncer } from './sync.js';
import { SyncLoop } from './sync-loop.js';

/** Seed 003 §4's keys, accepted in `storage.options` too (the environment and .env win). */
const settingKeys = Object.fromEntries(
  SETTING_NAMES.map((name) => [name, z.union([z.string(), z.number()]).optional()]),
);

export const simplenoteOptions = z
  .object({
    syncIntervalSeconds: z
      .number()
      .int()
      .refine((n) => n === 0 || n >= 60, '0 (no background sync) or at least 60')
      .optional()
      .describe('seconds between background delta syncs (default SYNC_INTERVAL_SECONDS or 300; 0 turns them off)'),
    persistDelayMs: z.number().int().min(0).default(1000).describe('how long after a write the cache file is saved'),
    watchIntervalMs: z
      .number()
      .int()
      .min(100)
      .optional()
      .describe(
        'while a watcher listens, how often a delta sync looks for changes from other devices (default: the background syncs report them; 30 s when those are off)',
      ),
    firstSync: z
      .enum(['at-open', 'behind-open'])
      .default('at-open')
      .describe(
        'at-open: an empty cache is filled before the open returns; behind-open: the open only reads the cache file, and the sync at start (login, fill or delta) begins with the first watcher (a server) or the first read that needs the cache filled',
      ),
    ...settingKeys,
  })
  .strict();

export type SimplenoteOptions = z.infer<typeof simplenoteOptions>;

export interface SimplenoteEnvironment {
  /** Where SIMPLENOTE_*, SIMPERIUM_*, API_TIMEOUT_SECONDS and the cache folders are read. */
  env?: NodeJS.ProcessEnv;
  /** Client settings beyond the environment's (tests shorten the backoff). */
  client?: Partial<SimperiumConfig>;
}

/** The backend definition, reading its environment from `environment` (the process's by default). */
export function simplenoteBackendWith(environment: SimplenoteEnvironment = {}): BackendDefinition<SimplenoteOptions> {
  return defineBackend<SimplenoteOptions>({
    id: 'simplenote',
    kind: 'both',
    description:
      'A Simplenote account over the Simperium API, with a local sql.js cache searched by FTS4 (BM25); writes confirmed by Simperium first.',
    folder: 'optional',
    capabilities: ['remote-sync', 'watch', 'full-text'],
    // `refresh` is a sync with the service.
    extensions: ['refresh'],
    options: simplenoteOptions as z.ZodType<SimplenoteOptions>,
    settings: (options) => describeSettings(settingsOf(environment, options)),
    async create(ctx) {
      const { env } = settingsOf(environment, ctx.options);
      requireCredentials(env);
      const config = simperiumConfigFromEnv(env, environment.client);
      const logger = ctx.logger.child({ backend: 'simplenote' });
      const file = cacheFile(ctx.folder, env, config);
      const { db, rebuilt } = await openCacheDatabase(file, logger);
      const cacheBytes = () => {
        try {
          return fs.statSync(file).size;
        } catch {
          return undefined;
        }
      };
      const cache = new NoteCache(db);
      let saving: Promise<void> = Promise.resolve();
      let timer: NodeJS.Timeout | undefined;
      const save = () =>
        (saving = saving
          .then(() => saveCacheDatabase(db, file))
          .catch((err: unknown) => logger.warn({ error: (err as Error).message }, 'simplenote cache not saved')));
      const persistSoon = () => {
        if (timer === undefined)
          timer = setTimeout(() => ((timer = undefined), void save()), ctx.options.persistDelayMs);
      };
      const client = new SimperiumClient(config, logger);
      let sink: () => ReturnType<SimplenoteStore['changeSink']> = () => undefined;
      const syncer = new Syncer(client, cache, logger, persistSoon, () => sink());
      const intervalSeconds = ctx.options.syncIntervalSeconds ?? intervalFromEnv(env.SYNC_INTERVAL_SECONDS);
      const loop = new SyncLoop(syncer, logger, intervalSeconds, ctx.faults);
      const deferred = ctx.options.firstSync === 'behind-open';
      const store = new SimplenoteStore({
        client,
        cache,
        syncer,
        loop,
        deferred,
        logger,
        persistSoon,
        cacheBytes,
        // A watcher is told by whichever sync runs; its own polling is needed only when none does
        // on a timer, so serving follows SYNC_INTERVAL_SECONDS as the seed has it.
        ...(ctx.options.watchIntervalMs !== undefined || intervalSeconds === 0
          ? { watchIntervalMs: ctx.options.watchIntervalMs ?? 30_000 }
          : {}),
        async closeCache() {
          await loop.stop();
          await syncer.idle();
          clearTimeout(timer);
          await save();
          await saving;
          cache.release();
          db.close();
        },
      });
      sink = () => store.changeSink();
      if (rebuilt && syncer.cursor === undefined)
        logger.info({ reason: rebuilt }, 'simplenote cache empty; a full sync fills it');
      // behind-open: no network at open (the store begins when served or first read); at-open: an empty cache is filled now.
      if (!deferred) {
        if (syncer.cursor === undefined) {
          try {
            await syncer.sync();
          } catch (err) {
            await store.close();
            if (err instanceof NotekernelError) throw err;
            throw new BackendUnavailableError(`Simplenote full sync failed: ${(err as Error).message}`, {
              backend: 'simplenote',
            });
          }
        }
        loop.start({ now: false });
      }
      return { store, search: store.searchIndex() };
    },
  });
}

export const simplenoteBackend = simplenoteBackendWith();

/** The effective settings: the given environment (the process's, plus `.env` from the working directory) over the config's keys. */
function settingsOf(environment: SimplenoteEnvironment, options: SimplenoteOptions) {
  const fromConfig: SettingValues = {};
  for (const name of SETTING_NAMES) {
    const value = (options as Record<string, unknown>)[name];
    if (typeof value === 'string' || typeof value === 'number') fromConfig[name] = value;
  }
  return resolveSettings(environment.env ?? process.env, fromConfig, environment.env ? {} : dotenvFile());
}

/** `notarium-cache-<hash of account and host>.sqlite3` in the vault folder or the platform cache folder. */
export function cacheFile(
  folder: string | undefined,
  env: NodeJS.ProcessEnv,
  config: Pick<SimperiumConfig, 'username' | 'apiUrl' | 'appId'>,
): string {
  const owner = createHash('sha256')
    .update(`notekernel-simplenote\0${config.apiUrl}\0${config.appId}\0${config.username}`)
    .digest('hex')
    .slice(0, 16);
  const dir =
    folder ??
    env.NOTARIUM_CACHE_DIR ??
    path.join(env.XDG_CACHE_HOME ?? path.join(os.homedir(), '.cache'), 'notekernel', 'simplenote');
  return path.join(dir, `notarium-cache-${owner}.sqlite3`);
}

export { intervalFromEnv } from './client/config.js';
