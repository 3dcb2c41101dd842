/**
 * memory: seed 002's service operations (capture, read, list, search, rename, replaceLink,
 * links, orphans, broken links, archive, unarchive, delete) as MCP tools, plus a doctor. Every
 * write goes through the kernel's NoteService (hash-checked). With the links plugin loaded,
 * the link graph comes from its index; without it, from the shared parser (see graph.ts).
 */
import type { z } from 'zod';
import { definePlugin, provide } from '../../kernel/plugin.js';
import { defragPrompt } from './defrag-prompt.js';
import { MEMORY_OPTIONS, memoryOptions, type MemoryOptions } from './options.js';
import { memoryTools } from './tools/index.js';

export const memoryPlugin = definePlugin<MemoryOptions>({
  id: 'memory',
  description: 'agent-memory (seed 002): pure markdown memory entries with id__ links, served as memory_* tools.',
  config: memoryOptions as z.ZodType<MemoryOptions>,
  register(ctx) {
    const options = memoryOptions.parse(ctx.options ?? {});
    return { services: [provide(MEMORY_OPTIONS, options)], tools: memoryTools, prompts: [defragPrompt(ctx.notes)] };
  },
});
