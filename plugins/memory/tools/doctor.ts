import { z } from 'zod';
import { requireMember } from '../../../kernel/backend.js';
import { defineTool } from '../../../kernel/tool.js';
import { diagnose } from '../doctor.js';

export const memoryDoctor = defineTool({
  name: 'memory_doctor',
  description: 'Check the memory root: markdown files that are not entries (no id__ in the name), ids carried by two files, entries without a # heading. Changes nothing.',
  input: z.object({}),
  annotations: { title: 'Check the memory root', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  requires: ['files'],
  handler: (_args, ctx) => diagnose(ctx.notes, requireMember(ctx.notes.store.files, ctx.vault.storageBackend, 'files', 'memory_doctor')),
});
