/**
 * Every config format cosmiconfig documents loads through the built `notekernel` command (the
 * bundled CLI, decision 011), found beside the vault or named with --config. Each config turns the
 * tags plugin off, so `tools` listing no `list_tags` shows the file was read and applied.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/run-cli.js';
import { removeDir, tempDir } from '../support/temp.js';

const JSON_CONFIG = JSON.stringify({ plugins: { tags: false } });
const YAML_CONFIG = 'plugins:\n  tags: false\n';
const CJS_CONFIG = 'module.exports = { plugins: { tags: false } };\n';
const ESM_CONFIG = 'export default { plugins: { tags: false } };\n';
const TS_CONFIG = 'const config: { plugins: Record<string, boolean> } = { plugins: { tags: false } };\nexport default config;\n';

/** Files written into the vault folder; the case name says which format is under test. */
const CASES: Array<[string, Record<string, string>]> = [
  ['notekernel.config.json', { 'notekernel.config.json': JSON_CONFIG }],
  ['notekernel.config.yaml', { 'notekernel.config.yaml': YAML_CONFIG }],
  ['notekernel.config.yml', { 'notekernel.config.yml': YAML_CONFIG }],
  ['notekernel.config.js (CommonJS)', { 'notekernel.config.js': CJS_CONFIG }],
  ['notekernel.config.js (ES module, "type": "module")', { 'package.json': '{"type":"module"}', 'notekernel.config.js': ESM_CONFIG }],
  ['notekernel.config.mjs', { 'notekernel.config.mjs': ESM_CONFIG }],
  ['notekernel.config.cjs', { 'notekernel.config.cjs': CJS_CONFIG }],
  ['notekernel.config.ts', { 'notekernel.config.ts': TS_CONFIG }],
  ['.notekernelrc (YAML)', { '.notekernelrc': YAML_CONFIG }],
  ['.notekernelrc (JSON)', { '.notekernelrc': JSON_CONFIG }],
  ['.notekernelrc.json', { '.notekernelrc.json': JSON_CONFIG }],
  ['.notekernelrc.yaml', { '.notekernelrc.yaml': YAML_CONFIG }],
  ['.notekernelrc.yml', { '.notekernelrc.yml': YAML_CONFIG }],
  ['.notekernelrc.js', { '.notekernelrc.js': CJS_CONFIG }],
  ['.notekernelrc.mjs', { '.notekernelrc.mjs': ESM_CONFIG }],
  ['.notekernelrc.cjs', { '.notekernelrc.cjs': CJS_CONFIG }],
  ['.notekernelrc.ts', { '.notekernelrc.ts': TS_CONFIG }],
  ['package.json "notekernel" key', { 'package.json': JSON.stringify({ name: 'my-notes', notekernel: { plugins: { tags: false } } }) }],
];

let root: string;

beforeAll(async () => {
  root = await tempDir('nk-e2e-config-');
});
afterAll(async () => {
  await removeDir(root);
});

async function toolNames(args: string[]): Promise<string[]> {
  const run = await runCli(['tools', ...args]);
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
    for (const [file, text] of Object.entries(files)) await fs.writeFile(path.join(vault, file), text);
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
