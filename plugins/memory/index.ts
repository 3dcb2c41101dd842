/**
 * memory: seed 002's service operations (capture, read, list, search, rename, links, orphans,
 * broken links, archive, unarchive, delete) as MCP tools, plus a doctor. Every write goes
 * through the kernel's NoteService (hash-checked). With the links plugin loaded, the link
 * graph comes from its index; without it, from the shared parser (see graph.ts).
 */
import { definePlugin } from '../../kernel/plugin.js';
import { defragPrompt } from './defrag-prompt.js';
import { memoryTools } from './tools/index.js';

export const memoryPlugin = definePlugin({
  id: 'memory',
  description: 'agent-memory (seed 002): pure markdown memory entries with id__ links, served as memory_* tools.',
  register(ctx) {
    return { tools: memoryTools, prompts: [defragPrompt(ctx.notes)] };
  },
});
