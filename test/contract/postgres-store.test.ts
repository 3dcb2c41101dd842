/**
 * The postgres storage backend through the NoteStore and SearchIndex contract suites, on the
 * PostgreSQL 15 + pgvector server `.ci/postgres start` gives (NOTEKERNEL_TEST_PG_URL). Each subject
 * is a fresh vault in one schema made for this file; "another program" is a second store opened on
 * the same vault, as a process on another host would open it. Without a server the suites are
 * skipped and say why; under CI=true that is a failure.
 */
import { afterAll, describe, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { silentLogger } from '../../kernel/logger.js';
import { postgresBackend, postgresOptions } from '../../backends/postgres/index.js';
import type { PgNoteStore } from '../../backends/postgres/store.js';
import type { OutsideWorld } from '../../testing/contract-support.js';
import { describeNoteStoreContract, describeSearchIndexContract } from '../../testing/index.js';
import { dropSchema, freshSchema, PG_URL, postgresUnavailable } from '../support/postgres.js';
import { removeDir, tempDir } from '../support/temp.js';

const unavailable = postgresUnavailable();
const schema = freshSchema();

async function openVault(vault: string, folder: string, extra: Record<string, unknown> = {}) {
  return postgresBackend.create({
    folder,
    options: postgresOptions.parse({ url: PG_URL, schema, vault, pollMs: 100, ...extra }),
    logger: silentLogger(),
    readOnly: false,
  });
}

/** Another host's view of the vault: a second store on it, reading and writing the notes' text. */
function anotherHost(other: PgNoteStore): OutsideWorld {
  const text = async (id: string) => {
    const stored = await other.textOf(id);
    if (stored === undefined) throw new Error(`${id} is not stored`);
    return stored;
  };
  return {
    bytes: async (note) => Buffer.from(await text(note.id), 'utf8'),
    replace: async (note, bytes) => void (await other.putText(note.id, Buffer.from(bytes).toString('utf8'))),
    append: async (note, added) => void (await other.putText(note.id, (await text(note.id)) + added)),
    remove: async (note) => void (await other.delete(note.id)),
    exists: async (note) => (await other.get(note.id)) !== undefined,
    leftovers: async () => [],
  };
}

if (unavailable) {
  if (process.env.CI === 'true') {
    describe('contract suites: postgres storage backend', () => {
      it('has a PostgreSQL server to run against', () => {
        throw new Error(`CI must run the postgres backend's contract suites, but ${unavailable}.`);
      });
    });
  } else {
    console.warn(`SKIPPED: postgres storage backend contract suites: ${unavailable}.`);
    describe.skip(`contract suites: postgres storage backend (skipped: ${unavailable})`, () => {
      it('needs a server', () => undefined);
    });
  }
} else {
  afterAll(() => dropSchema(schema));

  describeNoteStoreContract('postgres', async () => {
    const vault = `v${randomBytes(5).toString('hex')}`;
    const root = await tempDir();
    const otherRoot = await tempDir();
    const opened = await openVault(vault, root);
    const other = await openVault(vault, otherRoot);
    return {
      store: opened.store!,
      capabilities: postgresBackend.capabilities,
      extensions: postgresBackend.extensions ?? [],
      root,
      outside: anotherHost(other.store as PgNoteStore),
      async close() {
        await opened.store?.close();
        await other.store?.close();
        await removeDir(root);
        await removeDir(otherRoot);
      },
    };
  });

  // Vectors on, with the hashed embedder (shared words, no model): the vector cases run too.
  describeSearchIndexContract('postgres (tsvector and pgvector on the notes table)', async () => {
    const root = await tempDir();
    const opened = await openVault(`s${randomBytes(5).toString('hex')}`, root, { embedder: 'hashed' });
    return {
      store: opened.store!,
      search: opened.search!,
      capabilities: postgresBackend.capabilities,
      extensions: postgresBackend.extensions ?? [],
      async close() {
        await opened.search?.close();
        await opened.store?.close();
        await removeDir(root);
      },
    };
  });
}
