import { z } from 'zod';
import { NotFoundError } from '../../../kernel/errors.js';
import { defineTool } from '../../../kernel/tool.js';
import { entryId, idField } from '../entry-id.js';
import { timestampForm } from '../options.js';
import { entryView, listItem, entryListItemOutput, entryViewOutput } from '../view.js';
import { nameString } from '../../../toolkit/tool-fields.js';

/** US-001 (FR-10): a pure read; nothing on disk changes. */
export const memoryRead = defineTool({
  name: 'memory_read',
  description:
    'Read one memory entry: title, tags, outbound links (with their position in the body), body, createdAt/updatedAt (from git), status and path.',
  input: z.object({ id: idField }),
  output: entryViewOutput,
  annotations: { title: 'Read a memory', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async handler(args, ctx) {
    const id = entryId(args.id);
    const note = await ctx.notes.get(id);
    if (!note) throw new NotFoundError(`No memory entry ${id}.`, { id });
    return entryView(note, timestampForm(ctx));
  },
});

/** US-007: derived metadata of every entry (id from the filename, title from the heading, tags from the body). */
export const memoryList = defineTool({
  name: 'memory_list',
  description:
    'List memory entries (id, title, tags, timestamps, status, org, path), most recently updated first. Filters combine.',
  input: z.object({
    org: nameString().optional().describe('only entries under orgs/{org}/'),
    tag: nameString().optional().describe('only entries with this tag (with or without the #)'),
    status: z
      .enum(['active', 'archived', 'all'])
      .optional()
      .describe('active (default), archived (under archive/), or all'),
  }),
  output: z.object({ result: z.array(z.object(entryListItemOutput)) }),
  annotations: { title: 'List memories', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async handler(args, ctx) {
    const status = args.status ?? 'active';
    const tag = args.tag?.replace(/^#/, '');
    const form = timestampForm(ctx);
    return (await ctx.notes.list())
      .map((n) => listItem(n, form))
      .filter(
        (e) =>
          (status === 'all' || e.status === status) &&
          (args.org === undefined || e.org === args.org) &&
          (tag === undefined || e.tags.includes(tag)),
      );
  },
});
