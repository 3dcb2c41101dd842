/** The examples are code users copy: they must compile (tsconfig includes them) and work. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { embed } from '../../../examples/embed-kernel.js';
import { demo } from '../../../examples/stdio-client.js';
import { wordCountPlugin } from '../../../examples/custom-plugin.js';
import { builtinCatalogue } from '../../../profiles/catalogue.js';
import type { Catalogue } from '../../../kernel/kernel.js';
import { createTestKernel, removeDir, tempDir } from '../../support/temp.js';
import { CLI } from '../../support/cli.js';
import { loadUserConfig } from '../../../kernel/config/load.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map(removeDir));
});

describe('examples', () => {
  it('embed-kernel writes and reads a note in-process', async () => {
    const dir = await tempDir();
    dirs.push(dir);
    const result = await embed(dir);
    expect(result.title).toBe('Embedded');
    expect(result.hash).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('stdio-client talks to the built server', async () => {
    const dir = await tempDir();
    dirs.push(dir);
    const tools = await demo(dir, CLI);
    expect(tools).toContain('create_note');
    expect(await fs.readFile(path.join(dir, 'general', 'from-a-client.md'), 'utf8')).toContain('Hello over MCP.');
  });

  it('custom-plugin serves its tool once added to a catalogue and profile', async () => {
    const catalogue: Catalogue = {
      ...builtinCatalogue,
      plugins: [...builtinCatalogue.plugins, wordCountPlugin],
      profiles: [{ id: 'mine', description: 'flint + word count', storage: { backend: 'fs-sqlite' }, plugins: { 'note-types': true, notes: true, 'word-count': { minLength: 3 } } }],
    };
    const t = await createTestKernel({ profile: 'mine', catalogue });
    try {
      await t.vault.call('create_note', { title: 'Count me', content: 'one two three a an' });
      expect(await t.vault.call('count_words', { identifier: 'general/count-me.md' })).toEqual({ identifier: 'general/count-me.md', words: 3 });
    } finally {
      await t.close();
    }
  });

  it('notekernel.config.yaml is a valid config', async () => {
    const loaded = await loadUserConfig({ configPath: path.resolve('examples/notekernel.config.yaml') });
    expect(loaded.config.profile).toBe('flint');
  });
});
