/**
 * The CLI as a first-time user meets it: serve on a folder that does not exist yet, help that
 * lists every command (plugin ones too) and only real profiles, suggestions for typos, -v.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, connectStdio } from '../support/mcp.js';
import { runCli } from '../support/run-cli.js';
import { removeDir, tempDir } from '../support/temp.js';

let root: string;
beforeAll(async () => {
  root = await tempDir('nk-e2e-first-');
});
afterAll(async () => {
  await removeDir(root);
});

describe('notekernel on first use', () => {
  it('serve creates a vault folder that does not exist yet and says so', async () => {
    const vault = path.join(root, 'not', 'yet');
    const session = await connectStdio(['serve', '--profile', 'flint', '--vault', vault]);
    try {
      const created = await callTool(session.client, 'create_note', { title: 'First', content: 'hello' });
      expect(created.isError).toBe(false);
      expect(session.stderr()).toContain(`created the vault folder ${vault}`);
      expect((await fs.stat(vault)).isDirectory()).toBe(true);
    } finally {
      await session.close();
    }
  });

  it('--help lists the plugin commands and only profiles that exist', async () => {
    const run = await runCli(['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^ {2}migrate /m);
    expect(run.stdout).toMatch(/^ {2}links-repair /m);
    const serveHelp = await runCli(['serve', '--help']);
    expect(serveHelp.stdout.replace(/\s+/g, ' ')).toContain('flint, zettelkasten, agent-memory, notarium or obsidian');
  });

  it("help migrate and migrate --help print the command's help and touch no folder", async () => {
    const cwd = path.join(root, 'cwd');
    await fs.mkdir(cwd);
    for (const args of [
      ['help', 'migrate'],
      ['migrate', '--help'],
    ]) {
      const run = await runCli(args, { cwd });
      expect(run.code).toBe(0);
      expect(run.stdout).toContain('Usage: notekernel migrate <step>');
    }
    expect(await fs.readdir(cwd)).toEqual([]);
  });

  it('suggests the closest command and option', async () => {
    const command = await runCli(['serv']);
    expect(command.code).toBe(2);
    expect(command.stderr).toContain('Did you mean serve?');
    const option = await runCli(['serve', '--vaul', root]);
    expect(option.code).toBe(2);
    expect(option.stderr).toContain('Did you mean --vault?');
  });

  it('-v and --version print the version', async () => {
    for (const flag of ['-v', '--version']) {
      const run = await runCli([flag]);
      expect(run.code).toBe(0);
      expect(run.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    }
  });

  it('list shows only the options it uses', async () => {
    const run = await runCli(['list', '--help']);
    expect(run.stdout).toContain('--config');
    expect(run.stdout).not.toContain('--profile');
    expect(run.stdout).not.toContain('--read-only');
  });

  it('delete messages name the flag, not the MCP argument', async () => {
    const vault = path.join(root, 'del');
    expect((await runCli(['init', vault])).code).toBe(0);
    const run = await runCli(['delete', 'note', 'general/welcome-to-your-vault.md', '--vault', vault]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Pass --confirm');
    expect(run.stderr).not.toContain('confirm=true');
  });
});

describe('notekernel without a vault or with a broken config', () => {
  it('tools --profile lists the tools with no vault given or registered', async () => {
    const run = await runCli(['tools', '--profile', 'zettelkasten', '--json'], {
      env: { NOTEKERNEL_CONFIG_DIR: path.join(root, 'empty-registry') },
      cwd: root,
    });
    expect(run.code, run.stderr).toBe(0);
    expect((JSON.parse(run.stdout) as Array<{ name: string }>).map((t) => t.name)).toContain('save_card');
  });

  it('a JSON config with a syntax error names the file and the reason on one line', async () => {
    const dir = path.join(root, 'bad-json');
    await fs.mkdir(dir);
    await fs.writeFile(path.join(dir, 'notekernel.config.json'), '{"profile": "flint",');
    const run = await runCli(['tools', '--vault', dir]);
    expect(run.code).toBe(2);
    const line = run.stderr.split('\n').find((l) => l.startsWith('notekernel: config_invalid'));
    expect(line).toContain('notekernel.config.json');
    expect(line).toMatch(/Expected|Unexpected|position/);
  });
});

describe('plan errors name the config file', () => {
  it('a plugin whose dependency the config drops fails naming the config file', async () => {
    const dir = path.join(root, 'dep-config');
    await fs.mkdir(dir);
    const config = path.join(dir, 'notekernel.config.yaml');
    await fs.writeFile(config, 'profile: flint\nplugins:\n  note-types: false\n');
    const run = await runCli(['tools', '--vault', dir]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/plugin_dependency: .*notekernel\.config\.yaml: /);
  });
});
