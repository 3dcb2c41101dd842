/**
 * `notekernel migrate-db` and the doctor's postgres checks, run in process through the CLI's own
 * entry (`main`), stdout captured: migrations applied then found done, the URL's password never
 * printed, and a doctor run on a flint config whose store is postgres reporting the server, the
 * schema version and the feed.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, expect, it, vi } from 'vitest';
import { main } from '../../../app/cli/main.js';
import { LATEST_VERSION } from '../../../backends/postgres/migrations.js';
import { removeDir, tempDir } from '../../support/temp.js';
import { describePg, dropSchema, freshSchema, PG_URL, vaultName } from './helpers.js';

describePg('postgres backend: migrate-db and doctor', () => {
  const schema = freshSchema();
  let out = '';
  let folder: string;
  beforeEach(async () => {
    out = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      out += chunk.toString();
      return true;
    });
    vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    folder = await tempDir('nk-pg-cli-');
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await removeDir(folder);
  });
  afterAll(() => dropSchema(schema));

  it('migrate-db --url applies the migrations once, then has nothing to apply; no password printed', async () => {
    const url = new URL(PG_URL!);
    url.password = 'sekret-pw'; // trust authentication ignores it; the output must not show it
    expect(await main(['migrate-db', '--url', url.toString(), '--schema', schema, '--json'])).toBe(0);
    const first = JSON.parse(out) as { from: number; to: number; applied: unknown[]; database: string };
    expect(first).toMatchObject({ from: 0, to: LATEST_VERSION });
    expect(first.applied).toHaveLength(LATEST_VERSION);
    expect(out).not.toContain('sekret-pw');
    out = '';
    expect(await main(['migrate-db', '--url', url.toString(), '--schema', schema, '--json'])).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ from: LATEST_VERSION, applied: [] });
  });

  it('migrate-db refuses a config whose notes are not in postgres', async () => {
    const config = path.join(folder, 'notekernel.config.json');
    await fs.writeFile(config, JSON.stringify({ profile: 'flint' }));
    expect(await main(['migrate-db', '--config', config])).not.toBe(0);
  });

  it('doctor on a flint config with the postgres store checks the server, the schema and the feed', async () => {
    const config = path.join(folder, 'notekernel.config.json');
    await fs.writeFile(
      config,
      JSON.stringify({
        profile: 'flint',
        storage: { backend: 'postgres', options: { url: PG_URL, schema, vault: vaultName() } },
      }),
    );
    const code = await main(['doctor', '--config', config, '--vault', folder, '--json']);
    const report = JSON.parse(out) as { ok: boolean; findings: Array<{ check: string; ok: boolean; detail: string }> };
    const finding = (check: string) => report.findings.find((f) => f.check === check);
    expect(finding('postgres')).toMatchObject({ ok: true, detail: expect.stringMatching(/^PostgreSQL 15/) });
    expect(finding('schema')).toMatchObject({ ok: true, detail: `schema "${schema}" at version ${LATEST_VERSION}` });
    expect(finding('pgvector')?.ok).toBe(true);
    expect(finding('feed')?.ok).toBe(true);
    expect(report.findings.filter((f) => !f.ok)).toEqual([]);
    expect(code).toBe(0);
  });
});
