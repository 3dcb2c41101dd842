import { z } from 'zod';
import { defineTool } from '../../../kernel/tool.js';
import { vaultIdField } from '../../../kernel/vault-id.js';
import type { LinksRuntime } from '../runtime.js';
import { limitField } from './find-broken-links.js';
import { bool, num, str } from '../../../kernel/tool-output.js';

export function getLinkGraphTool(runtime: LinksRuntime) {
  return defineTool({
    name: 'get_link_graph',
    description:
      'The link neighbourhood of a note to N hops (notes with titles and distance, edges with link counts), and/or the orphans: notes no other note links to. Without identifier: orphans only.',
    input: z.object({
      identifier: z.string().min(1).optional().describe('Centre note (id, title or filename); omit to list orphans only'),
      depth: z.number().int().min(1).max(5).default(1).describe('Hops from the centre, 1–5 (default 1)'),
      direction: z.enum(['both', 'out', 'in']).default('both').describe('Follow outgoing links, incoming links, or both (default)'),
      orphans: z.boolean().optional().describe('Also list orphan notes (default: only when no identifier is given)'),
      limit: limitField(100, 1000, 'notes (and orphans)'),
      vault_id: vaultIdField,
    }),
    output: z.object({ success: bool, center: str.optional(), depth: num.optional(), nodes: z.array(z.object({ id: str, title: str, distance: num })).optional(), edges: z.array(z.object({ source: str, target: str, count: num })).optional(), truncated: bool.optional(), orphans: z.array(z.object({ id: str, title: str })).optional(), orphan_count: num.optional() }),
    annotations: { title: 'Get link graph', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    async handler(args, ctx) {
      const wantOrphans = args.orphans ?? args.identifier === undefined;
      if (wantOrphans) await runtime.reconcile();
      const graph = args.identifier
        ? await runtime.graph(await runtime.noteId(args.identifier), { depth: args.depth, direction: args.direction, limit: args.limit })
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
