/**
 * A simplenote backend on a fresh fake Simperium server and a temp cache folder, with the
 * contract's `outside` view: another device writing straight into the service.
 */
import type { BackendInstance } from '../../kernel/backend.js';
import { silentLogger } from '../../kernel/logger.js';
import { simplenoteBackendWith, simplenoteOptions, type SimplenoteOptions } from '../../backends/simplenote/index.js';
import { canonicalJson } from '../../backends/simplenote/note-object.js';
import type { SimperiumConfig } from '../../backends/simplenote/client/config.js';
import { tempFilesUnder, type OutsideWorld } from '../../testing/contract-support.js';
import { startFakeSimperium, type FakeSimperium } from './fake-simperium/index.js';
import { removeDir, tempDir } from './temp.js';

export interface SimplenoteSubject {
  fake: FakeSimperium;
  folder: string;
  instance: BackendInstance;
  outside: OutsideWorld;
  /** Opens the backend again on the same fake and cache folder (after `instance.store.close()`). */
  reopen(options?: Partial<SimplenoteOptions>): Promise<BackendInstance>;
  close(): Promise<void>;
}

export function envFor(fake: FakeSimperium): NodeJS.ProcessEnv {
  return {
    SIMPERIUM_AUTH_URL: fake.url,
    SIMPERIUM_API_URL: fake.url,
    SIMPERIUM_APP_ID: fake.appId,
    SIMPERIUM_API_KEY: fake.apiKey,
    SIMPLENOTE_USERNAME: 'user@example.com',
    SIMPLENOTE_PASSWORD: 'secret-password',
  };
}

export async function openSimplenote(
  options: {
    fake?: FakeSimperium;
    folder?: string;
    options?: Partial<SimplenoteOptions>;
    client?: Partial<SimperiumConfig>;
  } = {},
): Promise<SimplenoteSubject> {
  const fake = options.fake ?? (await startFakeSimperium());
  const folder = options.folder ?? (await tempDir('nk-simplenote-'));
  const definition = simplenoteBackendWith({
    env: envFor(fake),
    client: { baseDelayMs: 5, maxDelayMs: 50, ...options.client },
  });
  const open = (extra: Partial<SimplenoteOptions> = {}) =>
    definition.create({
      folder,
      options: simplenoteOptions.parse({
        syncIntervalSeconds: 0,
        persistDelayMs: 10,
        watchIntervalMs: 200,
        ...options.options,
        ...extra,
      }),
      logger: silentLogger(),
      readOnly: false,
    });
  const instance = await open();
  const bucket = () => fake.bucket('note');
  const outside: OutsideWorld = {
    async bytes(note) {
      const found = bucket().get(note.id);
      if (!found) throw new Error(`no note ${note.id} on the fake server`);
      return Buffer.from(canonicalJson(found.data));
    },
    async replace(note, bytes) {
      bucket().post(note.id, JSON.parse(Buffer.from(bytes).toString('utf8')) as Record<string, unknown>, {
        replace: true,
      });
    },
    async append(note, text) {
      const found = bucket().get(note.id)!;
      bucket().post(note.id, { content: `${String(found.data.content)}${text}`, modificationDate: Date.now() / 1000 });
    },
    async remove(note) {
      bucket().delete(note.id);
    },
    async exists(note) {
      return bucket().get(note.id) !== undefined;
    },
    leftovers: () => tempFilesUnder(folder),
  };
  return {
    fake,
    folder,
    instance,
    outside,
    reopen: open,
    async close() {
      await instance.store?.close();
      if (!options.fake) await fake.stop();
      if (!options.folder) await removeDir(folder);
    },
  };
}
