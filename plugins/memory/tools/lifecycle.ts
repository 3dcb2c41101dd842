import { z } from 'zod';
import { defineTool } from '../../../kernel/tool.js';
import type { ToolContext } from '../../../kernel/tool.js';
import { entryId, idField } from '../entry-id.js';
import { entryView } from '../view.js';
import { bool, str } from '../../../toolkit/tool-output.js';

/** Status is the folder (FR-6): archiving moves the file under archive/, keeping its sub-folder and id. */
async function setStatus(ctx: ToolContext, rawId: string, status: 'active' | 'archived') {
  const id = entryId(rawId);
  const note = await ctx.notes.require(id);
  const view = entryView(note);
  if (view.status === status) return { id, status, path: note.path, changed: false };
  const { note: moved } = await ctx.notes.update(id, { metadata: { status } }, note.contentHash);
  return { id, status, path: moved.path, changed: true };
}

export const memoryArchive = defineTool({
  name: 'memory_archive',
  description: 'Archive an entry: moves its file under archive/ (same id; links keep working).',
  input: z.object({ id: idField }),
  output: z.object({ id: str, status: str, path: str, changed: bool }),
  annotations: {
    title: 'Archive a memory',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  handler: (args, ctx) => setStatus(ctx, args.id, 'archived'),
});

export const memoryUnarchive = defineTool({
  name: 'memory_unarchive',
  description: 'Bring an archived entry back: moves its file out of archive/ to where it was.',
  input: z.object({ id: idField }),
  output: z.object({ id: str, status: str, path: str, changed: bool }),
  annotations: {
    title: 'Unarchive a memory',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  handler: (args, ctx) => setStatus(ctx, args.id, 'active'),
});

export const memoryDelete = defineTool({
  name: 'memory_delete',
  description:
    'Delete an entry file for good (links to it become broken links; with autoCommit, git history keeps it).',
  input: z.object({ id: idField }),
  output: z.object({ id: str, deleted: bool, title: str, path: str }),
  annotations: {
    title: 'Delete a memory',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: false,
  },
  async handler(args, ctx) {
    const id = entryId(args.id);
    const note = await ctx.notes.require(id);
    await ctx.notes.delete(id, note.contentHash);
    return { id, deleted: true, title: note.title, path: note.path };
  },
});
