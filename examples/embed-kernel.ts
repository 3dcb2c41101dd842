/**
 * Embedding the kernel in your own agent toolchain: no MCP, no subprocess. Tools are called
 * by name (`vault.call('get_note', ...)`) or, fully typed, by their definition.
 * Run it (Node 20: compile with tsc first; Node ≥ 22.6: --experimental-strip-types):
 *   node embed-kernel.js ./notes      (a fresh temporary vault when no folder is given)
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createKernel, type ToolResult } from 'notekernel';
import { createNoteTool, getNoteTool } from 'notekernel/plugins/notes';

export async function embed(vaultDir: string): Promise<{ title: unknown; hash: unknown }> {
  // No logger given: the kernel stays quiet. Pass `logger: createLogger({ level: 'info' })` to see its logs.
  const kernel = await createKernel({ profile: 'flint', config: { readOnly: false } });
  try {
    const vault = await kernel.openVault(vaultDir);
    await vault.init(); // default note types and a welcome note, once
    // Typed by the tool's zod schema: a wrong argument is a compile error here.
    const created: ToolResult<typeof createNoteTool> = await vault.call(createNoteTool, {
      type: 'general',
      title: 'Embedded',
      content: 'Written in-process.',
    });
    const id = (created as { id: string }).id;
    const note = (await vault.call(getNoteTool, { identifier: id, fields: ['title', 'content_hash'] })) as Record<
      string,
      unknown
    >;
    return { title: note.title, hash: note.content_hash };
  } finally {
    await kernel.close();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2] ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'notekernel-embed-')));
  await fs.mkdir(dir, { recursive: true });
  console.log(JSON.stringify({ vault: dir, ...(await embed(dir)) }));
}
