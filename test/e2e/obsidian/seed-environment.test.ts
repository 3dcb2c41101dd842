/**
 * Seed 004's configuration, end to end: a project folder with a `.env` naming `VAULT_PATH` and
 * `CHROMA_PATH` (relative, as the seed's `./.chroma_db`), the built CLI started there with
 * `serve --profile obsidian` and nothing else naming the vault, driven by the SDK's client over
 * stdio. The vault's notes are served, the search index lives at CHROMA_PATH (not in the vault),
 * and an exported VAULT_PATH wins over the `.env` one; other profiles ignore both.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, CLI } from '../../support/cli.js';
import { writeObsidianVault } from '../../support/obsidian-vault.js';
import { runCli } from '../../support/run-cli.js';
import { removeDir, tempDir } from '../../support/temp.js';

let sandbox: string;
let project: string;
let vault: string;
let other: string;
let config: string;

/** The process environment without the seed's variables: only what a test sets reaches the server. */
function baseEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env = { ...(process.env as Record<string, string>) };
  delete env.VAULT_PATH;
  delete env.CHROMA_PATH;
  delete env.NOTEKERNEL_VAULT;
  return { ...env, NOTEKERNEL_CONFIG_DIR: path.join(sandbox, 'registry'), ...extra };
}

async function serveIn(cwd: string, env: Record<string, string> = {}): Promise<Client> {
  assertBuilt();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CLI, 'serve', '--profile', 'obsidian', '--config', config],
    cwd,
    env: baseEnv(env),
    stderr: 'pipe',
  });
  const client = new Client({ name: 'seed-004-env', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

async function folderList(client: Client): Promise<string[]> {
  const result = await client.callTool({ name: 'search_by_folder', arguments: { folder: '', recursive: true } });
  expect(result.isError ?? false, JSON.stringify(result.content)).toBe(false);
  return JSON.parse((result.content as Array<{ text: string }>)[0]!.text) as string[];
}

beforeAll(async () => {
  sandbox = await tempDir('nk-e2e-obsidian-env-');
  project = path.join(sandbox, 'obsidian-tools');
  vault = path.join(sandbox, 'archvault2026');
  other = path.join(sandbox, 'other vault');
  fs.mkdirSync(project);
  fs.mkdirSync(vault);
  fs.mkdirSync(other);
  writeObsidianVault(vault);
  fs.writeFileSync(path.join(other, 'Only Here.md'), 'The other vault.\n');
  fs.writeFileSync(
    path.join(project, '.env'),
    `# seed 004's .env\nVAULT_PATH=${vault}\nCHROMA_PATH=./.chroma_db\nFIREWORKS_API_KEY=unused\n`,
  );
  // Only the small embedder is configured here; the vault and the index come from .env.
  config = path.join(sandbox, 'embedder.yaml');
  fs.writeFileSync(config, 'search:\n  backend: hybrid-search\n  options: { embedder: hashed, embedThreads: 0 }\n');
});

afterAll(async () => {
  await removeDir(sandbox);
});

describe("seed 004's .env: VAULT_PATH and CHROMA_PATH", () => {
  it('serves the vault VAULT_PATH names, with its search index at CHROMA_PATH', async () => {
    const client = await serveIn(project);
    try {
      expect(await folderList(client)).toContain('Projects/Project Alpha.md');
      const read = await client.callTool({ name: 'read_file', arguments: { path: 'root note.md' } });
      expect(JSON.stringify(read.content)).toContain('zyxquorble');
      const found = await client.callTool({
        name: 'search_vault',
        arguments: { query: 'zyxquorble', mode: 'keyword' },
      });
      expect(JSON.stringify(found.content)).toContain('root note.md');
    } finally {
      await client.close();
    }
    expect(fs.existsSync(path.join(project, '.chroma_db', 'hybrid.db'))).toBe(true);
    expect(fs.existsSync(path.join(vault, '.notekernel', 'hybrid.db'))).toBe(false);
  }, 60_000);

  it('an exported VAULT_PATH wins over the .env one; --vault wins over both', async () => {
    const client = await serveIn(project, { VAULT_PATH: other });
    try {
      expect(await folderList(client)).toEqual(['Only Here.md']);
    } finally {
      await client.close();
    }
    const run = await runCli(
      [
        'call',
        'search_by_folder',
        '{"folder": ""}',
        '--profile',
        'obsidian',
        '--config',
        config,
        '--vault',
        other,
        '--json',
      ],
      { cwd: project, env: baseEnv() },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual(['Only Here.md']);
  }, 60_000);

  it('the one-shot CLI reads .env too; another profile ignores VAULT_PATH', async () => {
    const run = await runCli(
      [
        'call',
        'find_backlinks',
        '{"note_name": "Project Alpha"}',
        '--profile',
        'obsidian',
        '--config',
        config,
        '--json',
      ],
      { cwd: project, env: baseEnv() },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toContain('People/Ada.md');
    const flint = await runCli(['call', 'search_notes', '{"query": "zyxquorble"}', '--profile', 'flint', '--json'], {
      cwd: project,
      env: baseEnv(),
    });
    expect(flint.code).not.toBe(0);
    expect(flint.stderr).toContain('No vault given');
  }, 60_000);
});
