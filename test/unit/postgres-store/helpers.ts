/**
 * What the postgres backend's unit tests share: the server (`.ci/postgres start`), a describe that
 * skips with the reason when there is none (and fails under CI=true), and vaults opened as
 * separate hosts would open them (each its own pool and feed connection).
 */
import { randomBytes } from 'node:crypto';
import { describe, it } from 'vitest';
import { silentLogger } from '../../../kernel/logger.js';
import { postgresBackend, postgresOptions } from '../../../backends/postgres/index.js';
import type { PgNoteStore } from '../../../backends/postgres/store.js';
import type { SearchIndex } from '../../../kernel/backend.js';
import { PG_URL, postgresUnavailable } from '../../support/postgres.js';
import { removeDir, tempDir } from '../../support/temp.js';

export { dropSchema, freshSchema, PG_URL } from '../../support/postgres.js';

/** `describe`, or a skip saying why (a failure under CI=true) when no server is at hand. */
export function describePg(name: string, body: () => void): void {
  const unavailable = postgresUnavailable();
  if (!unavailable) {
    describe(name, body);
    return;
  }
  if (process.env.CI === 'true') {
    describe(name, () => {
      it('has a PostgreSQL server to run against', () => {
        throw new Error(`CI must run ${name}, but ${unavailable}.`);
      });
    });
    return;
  }
  console.warn(`SKIPPED: ${name}: ${unavailable}.`);
  describe.skip(`${name} (skipped: ${unavailable})`, () => {
    it('needs a server', () => undefined);
  });
}

export function vaultName(): string {
  return `v${randomBytes(5).toString('hex')}`;
}

/** The test URL with an application name of its own, so a test can cut its own connections only. */
export function urlNamed(applicationName: string): string {
  const url = new URL(PG_URL!);
  url.searchParams.set('application_name', applicationName);
  return url.toString();
}

export interface Host {
  store: PgNoteStore;
  search: SearchIndex;
  close(): Promise<void>;
}

export async function openHost(schema: string, vault: string, options: Record<string, unknown> = {}): Promise<Host> {
  const folder = await tempDir('nk-pg-host-');
  const opened = await postgresBackend.create({
    folder,
    options: postgresOptions.parse({ url: PG_URL, schema, vault, pollMs: 100, ...options }),
    logger: silentLogger(),
    readOnly: false,
  });
  const store = opened.store as PgNoteStore;
  return {
    store,
    search: opened.search!,
    async close() {
      await opened.search?.close();
      await store.close();
      await removeDir(folder);
    },
  };
}

/** Resolves when `check` holds, polling; fails after `ms`. */
export async function until(check: () => boolean | Promise<boolean>, ms = 5_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
