import { z } from 'zod';
import { defineTool } from '../../../kernel/tool.js';
import { timestampForm } from '../options.js';
import { entryView, entryViewOutput } from '../view.js';
import { nameString, titleString } from '../../../toolkit/tool-fields.js';

/** US-001 / US-007: a pure markdown entry, `# title\n\n#tag1 #tag2\n\nbody`, named `slug id__XXXXXX.md`. */
export const memoryCapture = defineTool({
  name: 'memory_capture',
  description:
    'Save a new memory entry as plain markdown (# title, #tags, body). Link other entries with [[id__XXXXXX|text]]. Returns the entry with its new id.',
  input: z.object({
    title: titleString().min(1).describe('one line; becomes the "# heading" and the filename slug'),
    body: z.string().describe('markdown body; may hold inline #tags and [[id__XXXXXX|display text]] links'),
    tags: z
      .array(nameString())
      .optional()
      .describe('tags without spaces, e.g. ["people", "area__work"]; written as "#people #area__work" under the title'),
    org: nameString().optional().describe('organisation: the entry goes under orgs/{org}/'),
  }),
  output: entryViewOutput,
  annotations: {
    title: 'Capture a memory',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: false,
  },
  async handler(args, ctx) {
    const { note } = await ctx.notes.create({
      title: args.title,
      content: args.body,
      ...(args.tags ? { tags: args.tags } : {}),
      ...(args.org !== undefined ? { metadata: { org: args.org } } : {}),
    });
    return entryView(note, timestampForm(ctx));
  },
});
