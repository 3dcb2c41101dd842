import { z } from 'zod';
import { defineTool } from '../../../kernel/tool.js';
import { vaultIdField } from '../../../toolkit/tool-fields.js';
import type { LinksRuntime } from '../runtime.js';
import { bool, num, str, strs } from '../../../toolkit/tool-output.js';

export function migrateLinksTool(runtime: LinksRuntime) {
  return defineTool({
    name: 'migrate_links',
    description:
      'Rebuild the link tables from all notes (rarely needed: links stay current). Refuses if links exist, unless force.',
    input: z.object({
      force: z.boolean().default(false).describe('Rebuild even if links exist'),
      vault_id: vaultIdField,
    }),
    output: z.object({
      success: bool,
      message: str,
      existing_links: num.optional(),
      total_notes: num.optional(),
      processed: num.optional(),
      errors: num.optional(),
      error_details: strs.optional(),
    }),
    annotations: {
      title: 'Migrate links',
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
    async handler(args, ctx) {
      await runtime.ready();
      const existing = runtime.links.counts().links;
      if (!args.force && existing > 0) {
        return {
          success: false,
          message: 'Link tables already contain data. Use force=true to migrate anyway.',
          existing_links: existing,
        };
      }
      await runtime.run(() => runtime.links.clear());
      const report = await runtime.reconcile();
      return {
        success: true,
        message: 'Link migration completed',
        total_notes: report.scanned,
        processed: report.extracted,
        errors: report.unreadable.length,
        ...(report.unreadable.length
          ? { error_details: report.unreadable.slice(0, 10).map((id) => `${id}: unreadable`) }
          : {}),
      };
    },
  });
}
