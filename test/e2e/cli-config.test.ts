/**
 * Config files as people write them: a misspelt key anywhere (top level, plugin options,
 * backend options, nested settings, the vault's own config.yml) is named with the file and the closest valid
 * key; the example config's `defaultType: inbox` applies, over the vault's own default.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/cli.js';
import { callTool, connectStdio } from '../support/mcp.js';
import { runCli } from '../support/run-cli.js';
import { removeDir, tempDir } from '../support/temp.js';

let root: string;
beforeAll(async () => {
  root = await tempDir('nk-e2e-config-');
});
afterAll(async () => {
  await removeDir(root);
});

async function configFile(name: string, text: string): Promise<string> {
  const file = path.join(root, name);
  await fs.writeFile(file, text);
  return file;
}

describe('an unknown config key is named with the file and the closest valid key', () => {
  it.each([
    ['top level', 'profil: flint\n', 'profil: unknown key; did you mean "profile"?'],
    [
      'backend options',
      'profile: flint\nstorage:\n  options:\n    defaultTyp: inbox\n',
      'storage.options.defaultTyp: unknown key; did you mean "defaultType"?',
    ],
    [
      'plugin options',
      'profile: zettelkasten\nplugins:\n  card-workflow:\n    output_directori: cards\n',
      'plugins.card-workflow.output_directori: unknown key; did you mean "output_directory"?',
    ],
    [
      'nested options',
      'http:\n  sessionIdleSecond: 60\n',
      'http.sessionIdleSecond: unknown key; did you mean "sessionIdleSeconds"?',
    ],
    ['plugin id', 'plugins:\n  notez: true\n', 'plugins.notez: unknown plugin "notez"; did you mean "notes"?'],
  ])('%s', async (name, text, message) => {
    const file = await configFile(`${name.replace(/ /g, '-')}.yaml`, text);
    const run = await runCli(['tools', '--config', file, '--vault', path.join(root, 'unused')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${file}: ${message}`);
  });
});

describe("the vault's own .flint-note/config.yml", () => {
  it('keeps seed 000 keys it does not act on, and warns about a misspelt one naming the closest', async () => {
    const vault = path.join(root, 'vault-file');
    expect((await runCli(['init', vault])).code).toBe(0);
    const file = path.join(vault, '.flint-note', 'config.yml');
    const text = (await fs.readFile(file, 'utf8')).replace('deletion:\n', 'deletion:\n  require_confirmaton: false\n');
    await fs.writeFile(file, `vault_id: work\nworkspace_root: .\n${text}`);
    const run = await runCli(['tools', '--vault', vault, '--log-format', 'pretty']);
    expect(run.code).toBe(0);
    const warnings = run.stderr.split('\n').filter((line) => line.includes('WARN'));
    expect(warnings).toEqual([
      expect.stringContaining(
        '.flint-note/config.yml: deletion.require_confirmaton: unknown key, ignored; did you mean "deletion.require_confirmation"?',
      ),
    ]);
  });
});

describe("the example config's defaultType: inbox", () => {
  async function exampleConfig(dir: string): Promise<string> {
    await fs.mkdir(dir, { recursive: true });
    const file = path.join(dir, 'notekernel.config.yaml');
    await fs.copyFile(path.join(REPO_ROOT, 'examples', 'notekernel.config.yaml'), file);
    return file;
  }

  async function createUntyped(args: string[]): Promise<string> {
    const session = await connectStdio(['serve', ...args]);
    try {
      const created = await callTool(session.client, 'create_note', {
        title: 'No type given',
        content: 'where does it go?',
      });
      expect(created.isError, JSON.stringify(created.body)).toBe(false);
      return (created.body as { id: string }).id;
    } finally {
      await session.close();
    }
  }

  it('init writes it into the vault, and a note created without a type lands in inbox/', async () => {
    const dir = path.join(root, 'example');
    const config = await exampleConfig(dir);
    const vault = path.join(dir, 'notes');
    expect((await runCli(['init', vault, '--config', config])).code).toBe(0);
    expect(await fs.readFile(path.join(vault, '.flint-note', 'config.yml'), 'utf8')).toMatch(
      /^default_note_type: inbox$/m,
    );
    expect(await createUntyped(['--config', config, '--vault', vault])).toBe('inbox/no-type-given.md');
  });

  it("wins over a vault's own default_note_type written before (the config file is the user's latest word)", async () => {
    const vault = path.join(root, 'older');
    expect((await runCli(['init', vault])).code).toBe(0);
    expect(await fs.readFile(path.join(vault, '.flint-note', 'config.yml'), 'utf8')).toMatch(
      /^default_note_type: general$/m,
    );
    const config = await exampleConfig(path.join(root, 'older-config'));
    expect(await createUntyped(['--config', config, '--vault', vault])).toBe('inbox/no-type-given.md');
  });

  it("without defaultType in the config, the vault's own default_note_type applies", async () => {
    const vault = path.join(root, 'own');
    expect((await runCli(['init', vault])).code).toBe(0);
    const file = path.join(vault, '.flint-note', 'config.yml');
    await fs.writeFile(
      file,
      (await fs.readFile(file, 'utf8')).replace('default_note_type: general', 'default_note_type: scratch'),
    );
    expect(await createUntyped(['--profile', 'flint', '--vault', vault])).toBe('scratch/no-type-given.md');
  });
});
