import { z } from 'zod';
import { defineTool } from '../../../kernel/tool.js';
import { entryId, idField } from '../entry-id.js';
import { memoryGraph } from '../graph.js';
import { str, strs } from '../../../toolkit/tool-output.js';

const readOnly = { readOnlyHint: true, idempotentHint: true, openWorldHint: false } as const;

/** US-006: `{ inbound: [{ id, title }], outbound: [{ id, displayText }] }`. */
export const memoryLinks = defineTool({
  name: 'memory_links',
  description:
    'Links of one entry: inbound (entries linking to it, with their titles) and outbound ([[id__X|text]] links in its body).',
  input: z.object({ id: idField }),
  output: z.object({
    inbound: z.array(z.object({ id: str, title: str })),
    outbound: z.array(z.object({ id: str, displayText: str })),
  }),
  annotations: { title: 'Links of a memory', ...readOnly },
  handler: (args, ctx) => memoryGraph(ctx).links(entryId(args.id)),
});

/** US-006: ids of entries no other entry links to. */
export const memoryOrphans = defineTool({
  name: 'memory_orphans',
  description: 'Ids of entries that no other entry links to.',
  input: z.object({}),
  output: z.object({ result: strs }),
  annotations: { title: 'Orphan memories', ...readOnly },
  handler: (_args, ctx) => memoryGraph(ctx).orphans(),
});

/** US-006: `[{ sourceId, targetId }]` for links to ids no entry has. */
export const memoryBrokenLinks = defineTool({
  name: 'memory_broken_links',
  description: 'Links pointing at entries that do not exist, as { sourceId, targetId } pairs.',
  input: z.object({}),
  output: z.object({ result: z.array(z.object({ sourceId: str, targetId: str })) }),
  annotations: { title: 'Broken memory links', ...readOnly },
  handler: (_args, ctx) => memoryGraph(ctx).brokenLinks(),
});
