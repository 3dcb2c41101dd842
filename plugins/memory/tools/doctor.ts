import { z } from 'zod';
import { requireMember } from '../../../kernel/backend.js';
import { defineTool } from '../../../kernel/tool.js';
import { diagnose } from '../doctor.js';
import { bool, num, str, strs } from '../../../toolkit/tool-output.js';

export const memoryDoctor = defineTool({
  name: 'memory_doctor',
  description:
    'Check the memory root: markdown files that are not entries (no id__ in the name; README.md and the like are listed as ignored, not as problems), ids carried by two files, entries without a # heading. Changes nothing.',
  input: z.object({}),
  output: z.object({
    entries: num,
    notEntries: z.array(z.object({ path: str, reason: str })),
    ignored: z.array(z.object({ path: str, reason: str })),
    duplicateIds: z.array(z.object({ id: str, paths: strs })),
    missingHeadings: z.array(z.object({ id: str, path: str })),
    ok: bool,
  }),
  annotations: { title: 'Check the memory root', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  requires: ['files'],
  handler: (_args, ctx) =>
    diagnose(ctx.notes, requireMember(ctx.notes.store.files, ctx.vault.storageBackend, 'files', 'memory_doctor')),
});
