import { z } from 'zod';
import { defineTool } from '../../../kernel/tool.js';
import { toExternalLinkRow, toNoteLinkRow, noteLinkRowOutput } from '../render.js';
import type { LinksRuntime } from '../runtime.js';
import { bool, nullableStr, num, str } from '../../../toolkit/tool-output.js';
import { noteRefField, vaultIdField } from '../../../toolkit/tool-fields.js';

export function getNoteLinksTool(runtime: LinksRuntime) {
  return defineTool({
    name: 'get_note_links',
    description: "A note's outgoing wikilinks (target_note_id null when broken), external URLs and incoming links.",
    input: z.object({ identifier: noteRefField, vault_id: vaultIdField }),
    output: z.object({
      success: bool,
      note_id: str,
      outgoing_internal: z.array(noteLinkRowOutput),
      outgoing_external: z.array(
        z.object({
          id: num,
          note_id: str,
          url: str,
          title: nullableStr,
          line_number: num,
          link_type: str,
          created: str,
        }),
      ),
      incoming: z.array(noteLinkRowOutput),
    }),
    annotations: { title: 'Get note links', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    async handler(args, ctx) {
      const id = await runtime.noteId(args.identifier);
      return {
        success: true,
        note_id: id,
        outgoing_internal: runtime.links.outgoing(id).map(toNoteLinkRow),
        outgoing_external: runtime.links.externals(id).map(toExternalLinkRow),
        incoming: runtime.links.incoming(id).map(toNoteLinkRow),
      };
    },
  });
}
