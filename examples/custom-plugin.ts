/**
 * A custom plugin: one tool over the kernel's note service. Add it to a catalogue and a
 * profile (or pass your own catalogue to createKernel) to serve it over MCP, the CLI and the library.
 * Run it (compiled, or with --experimental-strip-types on Node ≥ 22.6): node custom-plugin.js
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { createKernel, definePlugin, defineTool, type Catalogue } from 'notekernel';
import { builtinCatalogue } from 'notekernel/profiles';

export const wordCountPlugin = definePlugin<{ minLength: number }>({
  id: 'word-count',
  description: 'Counts the words of a note.',
  config: z.object({ minLength: z.number().int().min(1).default(1) }),
  register(ctx) {
    const countWords = defineTool({
      name: 'count_words',
      description: 'Count the words in a note (words shorter than the configured minimum are ignored).',
      input: z.object({ identifier: z.string().describe('Note id, e.g. "general/my-note.md"') }),
      annotations: { readOnlyHint: true, idempotentHint: true },
      async handler({ identifier }, tool) {
        const note = await tool.notes.require(identifier);
        const words = note.content.split(/\s+/).filter((w) => w.length >= ctx.options.minLength);
        return { identifier, words: words.length };
      },
    });
    return { tools: [countWords] };
  },
});

/** The built-in catalogue plus this plugin, and a profile "mine" = flint's notes + word count. */
export const catalogueWithWordCount: Catalogue = {
  ...builtinCatalogue,
  plugins: [...builtinCatalogue.plugins, wordCountPlugin],
  profiles: [
    ...builtinCatalogue.profiles,
    {
      id: 'mine',
      description: 'flint + word count',
      storage: { backend: 'fs-sqlite' },
      plugins: { 'note-types': true, notes: true, 'word-count': { minLength: 3 } },
    },
  ],
};

export async function countInFreshVault(vaultDir: string): Promise<unknown> {
  const kernel = await createKernel({ profile: 'mine', catalogue: catalogueWithWordCount, config: {} });
  try {
    const vault = await kernel.openVault(vaultDir);
    await vault.call('create_note', { title: 'Count me', content: 'one two three a an' });
    return await vault.call('count_words', { identifier: 'general/count-me.md' });
  } finally {
    await kernel.close();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2] ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'notekernel-plugin-')));
  await fs.mkdir(dir, { recursive: true });
  console.log(JSON.stringify(await countInFreshVault(dir)));
}
