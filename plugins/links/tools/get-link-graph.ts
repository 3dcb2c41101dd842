import { z } from 'zod';
import { defineTool } from '../../../kernel/tool.js';
import type { LinksRuntime } from '../runtime.js';
import { bool, num, str } from '../../../toolkit/tool-output.js';
import { limitField, pathString, vaultIdField } from '../../../toolkit/tool-fields.js';

export function getLinkGraphTool(runtime: LinksRuntime) {
  return defineTool({
    name: 'get_link_graph',
    description:
      "A note's link neighbourhood to depth hops (notes with distance, edges with link counts) and/or orphans: notes nothing links to.",
    input: z.object({
      identifier: pathString().min(1).optional().describe('Centre note (id, title or filename); omit for orphans only'),
      depth: z.number().int().min(1).max(5).default(1).describe('Hops from the centre'),
      direction: z.enum(['both', 'out', 'in']).default('both').describe('Links to follow'),
      orphans: z.boolean().optional().describe('List orphans too (default: only without identifier)'),
      limit: limitField(100, 1000),
      vault_id: vaultIdField,
    }),
    output: z.object({
      success: bool,
      center: str.optional(),
      depth: num.optional(),
      nodes: z.array(z.object({ id: str, title: str, distance: num })).optional(),
      edges: z.array(z.object({ source: str, target: str, count: num })).optional(),
      truncated: bool.optional(),
      orphans: z.array(z.object({ id: str, title: str })).optional(),
      orphan_count: num.optional(),
    }),
    annotations: { title: 'Get link graph', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    async handler(args, ctx) {
      const wantOrphans = args.orphans ?? args.identifier === undefined;
      if (wantOrphans) await runtime.reconcile();
      const graph = args.identifier
        ? await runtime.graph(await runtime.noteId(args.identifier), {
            depth: args.depth,
            direction: args.direction,
            limit: args.limit,
          })
        : undefined;
      const orphans = wantOrphans ? await runtime.orphans() : undefined;
      return {
        success: true,
        ...(graph ?? {}),
        ...(orphans ? { orphans: orphans.slice(0, args.limit), orphan_count: orphans.length } : {}),
      };
    },
  });
}
