import { z } from 'zod';
import { defineTool } from '../../../kernel/tool.js';
import { vaultIdField } from '../../../kernel/vault-id.js';
import { toNoteLinkRow, noteLinkRowOutput } from '../render.js';
import type { LinksRuntime } from '../runtime.js';
import { bool, num } from '../../../kernel/tool-output.js';

export const limitField = (fallback: number, max: number, what: string) =>
  z.number().int().min(1).max(max).default(fallback).describe(`At most this many ${what} (default ${fallback}); the answer says when more exist`);

export function findBrokenLinksTool(runtime: LinksRuntime) {
  return defineTool({
    name: 'find_broken_links',
    description: 'Wikilinks whose target note does not exist, by source note and line. They resolve by themselves once a matching note appears.',
    input: z.object({ limit: limitField(500, 10_000, 'links'), vault_id: vaultIdField }),
    output: z.object({ success: bool, broken_links: z.array(noteLinkRowOutput), count: num, truncated: bool.optional() }),
    annotations: { title: 'Find broken links', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    async handler(args, ctx) {
      await runtime.reconcile();
      const broken = runtime.links.broken();
      const shown = broken.slice(0, args.limit).map(toNoteLinkRow);
      return { success: true, broken_links: shown, count: broken.length, ...(broken.length > shown.length ? { truncated: true } : {}) };
    },
  });
}
