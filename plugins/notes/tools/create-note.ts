import { z } from 'zod';
import { defineTool, type ToolContext } from '../../../kernel/tool.js';
import { toNotekernelError } from '../../../kernel/errors.js';
import type { Metadata } from '../../../kernel/note.js';
import { assertVault, vaultIdField } from '../../../kernel/vault-id.js';
import { NOTE_TYPES } from '../../note-types/index.js';
import { renderCreated } from '../render.js';

const metadataField = z.record(z.string(), z.unknown()).optional().describe('Frontmatter fields, validated against the type\'s schema');

const noteInput = z.object({
  type: z.string().min(1).optional().describe('Note type (folder); the vault\'s default type when omitted'),
  title: z.string().trim().min(1).describe('Note title'),
  content: z.string().describe('Markdown body'),
  metadata: metadataField,
});

export const createNoteTool = defineTool({
  name: 'create_note',
  description:
    'Create a note (type, title, content, metadata) or many at once (notes: [...]). Answers carry the type\'s agent instructions.',
  input: z
    .object({
      type: noteInput.shape.type,
      title: z.string().trim().min(1).optional().describe('Note title (single note)'),
      content: z.string().optional().describe('Markdown body (single note)'),
      metadata: metadataField,
      notes: z.array(noteInput).min(1).max(1000).optional().describe('Batch: notes to create, each {type, title, content, metadata}'),
      vault_id: vaultIdField,
    })
    .superRefine((args, issue) => {
      if (args.notes !== undefined) return;
      if (args.title === undefined) issue.addIssue({ code: 'custom', path: ['title'], message: 'Required (or pass notes: [...] for a batch)' });
      if (args.content === undefined) issue.addIssue({ code: 'custom', path: ['content'], message: 'Required (or pass notes: [...] for a batch)' });
    }),
  annotations: { title: 'Create note', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async handler(args, ctx) {
    assertVault(ctx, args.vault_id);
    if (args.notes) return createBatch(args.notes, ctx);
    const note = await ctx.notes.create({
      title: args.title as string,
      content: args.content as string,
      ...(args.type !== undefined ? { type: args.type } : {}),
      metadata: (args.metadata ?? {}) as Metadata,
    });
    const instructions = (await ctx.tryResolve(NOTE_TYPES)?.get(note.type ?? ''))?.description.agentInstructions ?? [];
    return {
      ...renderCreated(note),
      agent_instructions: instructions,
      next_suggestions: instructions.length ? `Consider following these guidelines for ${note.type} notes: ${instructions.join(', ')}` : '',
    };
  },
});

async function createBatch(notes: Array<z.output<typeof noteInput>>, ctx: ToolContext) {
  const results = [];
  for (const input of notes) {
    try {
      const note = await ctx.notes.create({
        title: input.title,
        content: input.content,
        ...(input.type !== undefined ? { type: input.type } : {}),
        metadata: (input.metadata ?? {}) as Metadata,
      });
      results.push({ input, success: true, result: renderCreated(note) });
    } catch (err) {
      const error = toNotekernelError(err);
      results.push({ input, success: false, error: error.message, code: error.code });
    }
  }
  const successful = results.filter((r) => r.success).length;
  return { total: notes.length, successful, failed: notes.length - successful, results };
}
