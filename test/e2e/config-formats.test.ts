/**
 * Every config format cosmiconfig documents loads through the built `notekernel` command (the
 * bundled CLI, decision 011), found beside the vault or named with --config. Each config turns the
 * tags plugin off, so `tools` listing no `list_tags` shows the file was read and applied.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CJS_CONFIG, CONFIG_CASES as CASES, ESM_CONFIG, TS_CONFIG } from '../support/config-cases.js';
import { runCli } from '../support/run-cli.js';
import { removeDir, tempDir } from '../support/temp.js';

let root: string;

beforeAll(async () => {
  root = await tempDir('nk-e2e-config-');
});
afterAll(async () => {
  await removeDir(root);
});

async function toolNames(args: string[]): Promise<string[]> {
  const run = await runCli(['tools', '--json', ...args]);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return (JSON.parse(run.stdout) as Array<{ name: string }>).map((tool) => tool.name);
}

describe('config files in every format load from the built CLI', () => {
  it('without a config file the tags plugin serves list_tags', async () => {
    const vault = path.join(root, 'none');
    await fs.mkdir(vault);
    expect(await toolNames(['--vault', vault])).toContain('list_tags');
  });

  it.each(CASES)('%s, found beside the vault', async (name, files) => {
    const vault = path.join(root, `found-${CASES.findIndex(([n]) => n === name)}`);
    await fs.mkdir(vault);
    for (const [file, text] of Object.entries(files)) {
      await fs.mkdir(path.dirname(path.join(vault, file)), { recursive: true });
      await fs.writeFile(path.join(vault, file), text);
    }
    expect(await toolNames(['--vault', vault])).not.toContain('list_tags');
  });

  it.each(['config.mjs', 'config.ts', 'config.cjs'])('%s named with --config', async (file) => {
    const vault = path.join(root, `named-${file}`);
    await fs.mkdir(vault);
    const config = path.join(root, `named-${file}-${file}`);
    await fs.writeFile(config, file.endsWith('.cjs') ? CJS_CONFIG : file.endsWith('.ts') ? TS_CONFIG : ESM_CONFIG);
    expect(await toolNames(['--vault', vault, '--config', config])).not.toContain('list_tags');
  });
});
