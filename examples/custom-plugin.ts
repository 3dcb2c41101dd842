/**
 * A custom plugin: one tool over the kernel's note service. Add it to a catalogue and a
 * profile (or pass your own catalogue to createKernel) to serve it over MCP, the CLI and the library.
 */
import { z } from 'zod';
import { definePlugin, defineTool } from '../kernel/index.js';

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
