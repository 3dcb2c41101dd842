import { z } from 'zod';
import { defineTool } from '../../../kernel/tool.js';
import { toNoteLinkRow, noteLinkRowOutput } from '../render.js';
import type { LinksRuntime } from '../runtime.js';
import { bool, num } from '../../../toolkit/tool-output.js';
import { limitField, vaultIdField } from '../../../toolkit/tool-fields.js';

export function findBrokenLinksTool(runtime: LinksRuntime) {
  return defineTool({
    name: 'find_broken_links',
    description: 'Wikilinks to no existing note, by source note and line; they resolve once a matching note appears.',
    input: z.object({ limit: limitField(500, 10_000), vault_id: vaultIdField }),
    output: z.object({
      success: bool,
      broken_links: z.array(noteLinkRowOutput),
      count: num,
      truncated: bool.optional(),
    }),
    annotations: { title: 'Find broken links', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    async handler(args, ctx) {
      await runtime.reconcile();
      const broken = runtime.links.broken();
      const shown = broken.slice(0, args.limit).map(toNoteLinkRow);
      return {
        success: true,
        broken_links: shown,
        count: broken.length,
        ...(broken.length > shown.length ? { truncated: true } : {}),
      };
    },
  });
}
