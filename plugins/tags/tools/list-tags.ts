import { z } from 'zod';
import { defineTool } from '../../../kernel/tool.js';
import type { TagIndex } from '../tag-index.js';
import { bool, num, str } from '../../../toolkit/tool-output.js';
import { limitField, vaultIdField } from '../../../toolkit/tool-fields.js';

export function listTagsTool(index: TagIndex) {
  return defineTool({
    name: 'list_tags',
    description: 'All tags (frontmatter and inline #tags, case-insensitive) with their note counts, most used first.',
    input: z.object({
      prefix: z.string().min(1).optional().describe('Only tags starting with this, e.g. "project/"'),
      limit: limitField(200, 10_000),
      vault_id: vaultIdField,
    }),
    output: z.object({
      success: bool,
      tags: z.array(z.object({ tag: str, count: num })),
      total: num,
      truncated: bool.optional(),
    }),
    annotations: { title: 'List tags', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    async handler(args, ctx) {
      await index.reconcile();
      const tags = await index.list(args.prefix !== undefined ? { prefix: args.prefix.replace(/^#/, '') } : {});
      return {
        success: true,
        tags: tags.slice(0, args.limit),
        total: tags.length,
        ...(tags.length > args.limit ? { truncated: true } : {}),
      };
    },
  });
}
