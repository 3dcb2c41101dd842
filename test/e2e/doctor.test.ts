/** `notekernel doctor` on a healthy vault, a vault whose index is corrupt, and one with a stale lock. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/run-cli.js';
import { removeDir, tempDir } from '../support/temp.js';

interface Report {
  ok: boolean;
  findings: Array<{ check: string; ok: boolean; detail: string; fix?: string }>;
}

let root: string;
beforeAll(async () => {
  root = await tempDir('nk-e2e-doctor-');
});
afterAll(async () => {
  await removeDir(root);
});

async function freshVault(name: string): Promise<string> {
  const vault = path.join(root, name);
  expect((await runCli(['init', vault])).code).toBe(0);
  return vault;
}

async function doctor(vault: string): Promise<{ code: number | null; report: Report }> {
  const run = await runCli(['doctor', '--vault', vault, '--json']);
  return { code: run.code, report: JSON.parse(run.stdout) as Report };
}

describe('notekernel doctor', () => {
  it('finds nothing wrong on a healthy vault, and prints readable lines without --json', async () => {
    const vault = await freshVault('healthy');
    const { code, report } = await doctor(vault);
    expect(code).toBe(0);
    expect(report.ok).toBe(true);
    expect(report.findings.map((f) => f.check)).toEqual(
      expect.arrayContaining(['node', 'sqlite', 'config', 'vault', 'locks', 'index', 'links']),
    );
    const text = await runCli(['doctor', '--vault', vault]);
    expect(text.stdout).toMatch(/^ok {3}sqlite: better-sqlite3 loads$/m);
  });

  it('reports a corrupt index (rebuilt from the files) and exits 1', async () => {
    const vault = await freshVault('corrupt');
    await fs.writeFile(path.join(vault, '.flint-note', 'notekernel.db'), 'this is not a database'.repeat(10));
    const { code, report } = await doctor(vault);
    expect(code).toBe(1);
    expect(report.findings).toContainEqual(
      expect.objectContaining({ check: 'warning', ok: false, detail: expect.stringMatching(/index is unreadable/) }),
    );
    expect((await doctor(vault)).report.ok).toBe(true); // rebuilt: the next run is clean
  });

  it('reports a lock left by a process that died, with what to do', async () => {
    const vault = await freshVault('locked');
    const locks = path.join(vault, '.flint-note', 'locks');
    await fs.mkdir(locks, { recursive: true });
    await fs.writeFile(path.join(locks, 'owner-999999-dead'), `999999 ${Date.now()}`);
    const { code, report } = await doctor(vault);
    expect(code).toBe(1);
    const lock = report.findings.find((f) => f.check === 'locks');
    expect(lock).toMatchObject({
      ok: false,
      detail: expect.stringContaining('owner-999999-dead'),
      fix: expect.stringContaining('delete'),
    });
  });

  it('names notekernel init when the vault does not exist', async () => {
    const { code, report } = await doctor(path.join(root, 'nowhere'));
    expect(code).toBe(1);
    expect(report.findings.find((f) => f.check === 'vault')?.fix).toContain('notekernel init');
  });
});
