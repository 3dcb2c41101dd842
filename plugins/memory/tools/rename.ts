import { z } from 'zod';
import { defineTool } from '../../../kernel/tool.js';
import { entryId, idField } from '../entry-id.js';
import { memoryGraph } from '../graph.js';

/** US-005: heading + filename (id kept) + inbound display text that equalled the old title. */
export const memoryRename = defineTool({
  name: 'memory_rename',
  description: 'Rename an entry: rewrites its "# heading" and filename (the id stays) and the display text of inbound links that showed the old title (custom display text is kept). Returns how many inbound links changed.',
  input: z.object({ id: idField, new_title: z.string().min(1).describe('the new title, one line') }),
  annotations: { title: 'Rename a memory', readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async handler(args, ctx) {
    const id = entryId(args.id);
    const note = await ctx.notes.require(id);
    if (note.title === args.new_title) return { id, oldTitle: note.title, title: note.title, path: note.path, updatedInboundLinks: 0 };
    const renamed = await ctx.notes.update(id, { title: args.new_title }, note.contentHash, note);
    const updatedInboundLinks = await memoryGraph(ctx).rewriteInbound(id, note.title, renamed.title);
    return { id, oldTitle: note.title, title: renamed.title, path: renamed.path, updatedInboundLinks };
  },
});
