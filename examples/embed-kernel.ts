/**
 * Embedding the kernel in your own agent toolchain: no MCP, no subprocess. Tools are called
 * by name (`vault.call('get_note', ...)`) or, fully typed, by their definition.
 */
import { createKernel } from '../app/index.js';
import { createNoteTool, getNoteTool } from '../plugins/notes/index.js';

export async function embed(vaultDir: string): Promise<{ title: unknown; hash: unknown }> {
  const kernel = await createKernel({ profile: 'flint', config: { readOnly: false }, logging: { level: 'warn' } });
  try {
    const vault = await kernel.openVault(vaultDir);
    await vault.init(); // default note types and a welcome note, once
    // Typed by the tool's zod schema: a wrong argument is a compile error here.
    const created = await vault.call(createNoteTool, { type: 'general', title: 'Embedded', content: 'Written in-process.' });
    const id = (created as { id: string }).id;
    const note = (await vault.call(getNoteTool, { identifier: id, fields: ['title', 'content_hash'] })) as Record<string, unknown>;
    return { title: note.title, hash: note.content_hash };
  } finally {
    await kernel.close();
  }
}
