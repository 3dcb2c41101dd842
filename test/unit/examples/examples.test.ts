/** The examples are code users copy: they must compile (tsconfig includes them) and work. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { embed } from '../../../examples/embed-kernel.js';
import { demo } from '../../../examples/stdio-client.js';
import { catalogueWithWordCount, countInFreshVault } from '../../../examples/custom-plugin.js';
import { createTestKernel, removeDir, tempDir } from '../../support/temp.js';
import { CLI } from '../../support/cli.js';
import { loadUserConfig } from '../../../app/config/load.js';

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
    const tools = await demo(dir, [process.execPath, CLI]);
    expect(tools).toContain('create_note');
    expect(await fs.readFile(path.join(dir, 'general', 'from-a-client.md'), 'utf8')).toContain('Hello over MCP.');
  });

  it('custom-plugin serves its tool once added to a catalogue and profile', async () => {
    const dir = await tempDir();
    dirs.push(dir);
    expect(await countInFreshVault(dir)).toEqual({ identifier: 'general/count-me.md', words: 3 });
    const t = await createTestKernel({ profile: 'mine', catalogue: catalogueWithWordCount });
    try {
      expect((await t.vault.tools()).map((tool) => tool.name)).toContain('count_words');
    } finally {
      await t.close();
    }
  });

  it('notekernel.config.yaml is a valid config', async () => {
    const loaded = await loadUserConfig({ configPath: path.resolve('examples/notekernel.config.yaml') });
    expect(loaded.config.profile).toBe('flint');
  });
});
