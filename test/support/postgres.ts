/**
 * The PostgreSQL server the postgres engine's tests run against: `NOTEKERNEL_TEST_PG_URL`, set by
 * `.ci/postgres start` (which `.ci/run` calls). Without it those tests are skipped, saying why —
 * except under CI=true, where a missing server is a failure, not a skip.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';
import { tempDir } from './temp.js';

export const PG_URL = process.env.NOTEKERNEL_TEST_PG_URL;

/** Why the postgres tests cannot run here, or undefined when they can. */
export function postgresUnavailable(): string | undefined {
  if (!PG_URL) return 'NOTEKERNEL_TEST_PG_URL is not set (start a server with: eval "$(bash .ci/postgres start)")';
  try {
    createRequire(import.meta.url).resolve('pg');
  } catch {
    return 'the npm package "pg" is not installed (npm install pg)';
  }
  return undefined;
}

/** A fresh schema name per test run, so runs never see each other's rows. */
export function freshSchema(): string {
  return `nk_test_${randomBytes(6).toString('hex')}`;
}

/** Drops a schema the test made. */
export async function dropSchema(schema: string): Promise<void> {
  const { Pool } = createRequire(import.meta.url)('pg') as {
    Pool: new (c: { connectionString: string }) => { query(q: string): Promise<unknown>; end(): Promise<void> };
  };
  const pool = new Pool({ connectionString: PG_URL! });
  try {
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await pool.end();
  }
}

/**
 * A vault folder whose config file puts a flint profile's notes in PostgreSQL (`vault` in
 * `schema`), as a `serve --config <config> --vault <folder>` on one host would have it.
 */
export async function postgresVaultFolder(
  prefix: string,
  options: { schema: string; vault: string; url?: string },
): Promise<{ folder: string; config: string }> {
  const folder = await tempDir(prefix);
  const config = path.join(folder, 'notekernel.config.json');
  const storage = {
    backend: 'postgres',
    options: { url: options.url ?? PG_URL, schema: options.schema, vault: options.vault },
  };
  await fs.writeFile(config, JSON.stringify({ profile: 'flint', storage }));
  return { folder, config };
}
