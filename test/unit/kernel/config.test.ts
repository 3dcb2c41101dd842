import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createKernel } from '../../../app/index.js';
import { loadUserConfig } from '../../../app/config/load.js';
import { silentLogger } from '../../../kernel/logger.js';
import { removeDir, tempDir } from '../../support/temp.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map(removeDir));
});

async function dirWith(files: Record<string, string>): Promise<string> {
  const dir = await tempDir();
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) await fs.writeFile(path.join(dir, name), text);
  return dir;
}

describe('config discovery (cosmiconfig, module notekernel)', () => {
  it.each([
    ['notekernel.config.yaml', 'profile: flint\nreadOnly: true\n'],
    ['notekernel.config.yml', 'profile: flint\nreadOnly: true\n'],
    ['notekernel.config.json', '{"profile":"flint","readOnly":true}'],
    ['notekernel.config.mjs', 'export default { profile: "flint", readOnly: true };'],
    ['.notekernelrc', 'profile: flint\nreadOnly: true\n'],
    ['.notekernelrc.json', '{"profile":"flint","readOnly":true}'],
    ['package.json', '{"name":"x","notekernel":{"profile":"flint","readOnly":true}}'],
  ])('finds %s', async (name, text) => {
    const dir = await dirWith({ [name]: text });
    const loaded = await loadUserConfig({ searchFrom: [dir] });
    expect(loaded.filepath).toBe(path.join(dir, name));
    expect(loaded.config).toMatchObject({ profile: 'flint', readOnly: true });
  });

  it('passes over a package.json without a notekernel key to the next folder', async () => {
    const project = await dirWith({ 'package.json': '{"name":"some-project"}' });
    expect(await loadUserConfig({ searchFrom: [project] })).toEqual({ config: {} });
    const vault = await dirWith({ '.notekernelrc.json': '{"readOnly":true}' });
    expect(await loadUserConfig({ searchFrom: [project, vault] })).toMatchObject({
      filepath: path.join(vault, '.notekernelrc.json'),
      config: { readOnly: true },
    });
  });

  it('reports a package.json that is not JSON', async () => {
    const dir = await dirWith({ 'package.json': '{"name": ' });
    await expect(loadUserConfig({ searchFrom: [dir] })).rejects.toMatchObject({
      code: 'config_invalid',
      message: expect.stringContaining('package.json'),
    });
  });

  it('needs no file at all', async () => {
    const dir = await dirWith({});
    expect(await loadUserConfig({ searchFrom: [dir] })).toEqual({ config: {} });
  });

  it('names the file, the key path and the reason for a bad value', async () => {
    const dir = await dirWith({ 'notekernel.config.yaml': 'profile: flint\nhttp:\n  port: "eighty"\n' });
    await expect(loadUserConfig({ searchFrom: [dir] })).rejects.toMatchObject({
      code: 'config_invalid',
      message: expect.stringMatching(/notekernel\.config\.yaml: http\.port: .*number/),
    });
  });

  it('names an unknown key', async () => {
    const dir = await dirWith({ 'notekernel.config.yaml': 'profil: flint\n' });
    await expect(loadUserConfig({ searchFrom: [dir] })).rejects.toMatchObject({
      code: 'config_invalid',
      message: expect.stringContaining('profil'),
    });
  });

  it('loads an explicit --config path', async () => {
    const dir = await dirWith({ 'custom.yaml': 'profile: flint\n' });
    const loaded = await loadUserConfig({ configPath: path.join(dir, 'custom.yaml') });
    expect(loaded.config.profile).toBe('flint');
  });
});

describe('config over profile', () => {
  it('lists the known plugins when one is unknown', async () => {
    await expect(
      createKernel({ config: { profile: 'flint', plugins: { 'no-such-plugin': true } }, logger: silentLogger() }),
    ).rejects.toMatchObject({
      code: 'config_invalid',
      message: expect.stringMatching(
        /plugins\.no-such-plugin: unknown plugin "no-such-plugin"; known plugins: .*note-types/,
      ),
    });
  });

  it('lists the known backends and profiles when one is unknown', async () => {
    await expect(
      createKernel({ config: { storage: { backend: 'nope' } }, logger: silentLogger() }),
    ).rejects.toMatchObject({
      message: expect.stringMatching(/storage\.backend: unknown backend "nope"; known backends: fs-sqlite/),
    });
    await expect(createKernel({ profile: 'nope', config: {}, logger: silentLogger() })).rejects.toMatchObject({
      message: expect.stringMatching(/unknown profile "nope"; known profiles: flint/),
    });
  });

  it('names the key path of a bad backend option', async () => {
    await expect(
      createKernel({ config: { storage: { options: { layout: 'spiral' } } }, logger: silentLogger() }),
    ).rejects.toMatchObject({
      code: 'config_invalid',
      message: expect.stringContaining('storage.options.layout'),
    });
  });

  it('merges backend options and drops plugins as the user says', async () => {
    // search depends on notes, so dropping notes means dropping search too.
    const kernel = await createKernel({
      config: { storage: { options: { defaultType: 'inbox' } }, plugins: { notes: false, search: false } },
      logger: silentLogger(),
    });
    expect(kernel.config.storage.options).toMatchObject({ metaDir: '.flint-note', defaultType: 'inbox' });
    const ids = kernel.config.plugins.map((p) => p.id);
    expect(ids).toContain('note-types');
    expect(ids).not.toContain('notes');
    await kernel.close();
  });

  it('refuses dropping a plugin another one depends on, naming both', async () => {
    await expect(
      createKernel({ config: { plugins: { 'note-types': false } }, logger: silentLogger() }),
    ).rejects.toMatchObject({
      code: 'plugin_dependency',
      message: expect.stringMatching(/"notes" depends on plugin "note-types"/),
    });
  });
});
