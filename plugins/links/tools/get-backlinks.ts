import { z } from 'zod';
import { defineTool } from '../../../kernel/tool.js';
import { toNoteLinkRow, noteLinkRowOutput } from '../render.js';
import type { LinksRuntime } from '../runtime.js';
import { noteRefField, vaultIdField } from '../../../toolkit/tool-fields.js';
import { bool, str } from '../../../toolkit/tool-output.js';

export function getBacklinksTool(runtime: LinksRuntime) {
  return defineTool({
    name: 'get_backlinks',
    description: 'Links from other notes to this one, newest first, each with its source note and line.',
    input: z.object({ identifier: noteRefField, vault_id: vaultIdField }),
    output: z.object({ success: bool, note_id: str, backlinks: z.array(noteLinkRowOutput) }),
    annotations: { title: 'Get backlinks', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    async handler(args, ctx) {
      const id = await runtime.noteId(args.identifier);
      return { success: true, note_id: id, backlinks: runtime.links.incoming(id).map(toNoteLinkRow) };
    },
  });
}
