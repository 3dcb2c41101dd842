import { z } from 'zod';
import type { PlanItem } from '../../../kernel/notes.js';
import { defineTool, type ToolContext } from '../../../kernel/tool.js';
import { toNotekernelError } from '../../../kernel/errors.js';
import type { Metadata, Note } from '../../../kernel/note.js';
import { VAULT_REGISTRY } from '../../../kernel/tokens.js';
import { vaultIdField } from '../../../kernel/vault-id.js';
import { NOTE_TYPES } from '../../note-types/service.js';
import { vaultConfig } from '../config.js';
import { renderCreated, createdOutput } from '../render.js';
import { schemaWarnings, withWarnings } from '../schema-warnings.js';
import { batchOutput, modesOutput, planPreviewOutput, record, str, strs, warningsOutput } from '../../../kernel/tool-output.js';
import { planDryRunField } from '../../../toolkit/tool-fields.js';
import { nameString, titleString } from '../../../kernel/name-limits.js';

// A batch item's fields are described once, on the single-note arguments.
const noteFields = {
  type: nameString().min(1).optional(),
  title: titleString().trim().min(1),
  content: z.string(),
  metadata: z.record(z.string(), z.unknown()).optional(),
};
const noteInput = z.object(noteFields);

export const createNoteTool = defineTool({
  name: 'create_note',
  description:
    "Create a note, or many (notes). Answers carry the type's agent instructions and name the vault.",
  input: z
    .object({
      type: noteFields.type.describe("Default: the vault's default_note_type"),
      title: titleString().trim().min(1).optional().describe('Single note'),
      content: z.string().optional().describe('Markdown body (single note)'),
      metadata: noteFields.metadata.describe("Frontmatter, checked against the type's schema"),
      notes: z.array(noteInput).min(1).max(1000).optional().describe('Batch instead of one note; fields as for one'),
      dry_run: planDryRunField('Batch only. '),
      vault_id: vaultIdField,
    })
    .superRefine((args, issue) => {
      if (args.notes !== undefined) return;
      if (args.title === undefined) issue.addIssue({ code: 'custom', path: ['title'], message: 'Required (or pass notes: [...] for a batch)' });
      if (args.content === undefined) issue.addIssue({ code: 'custom', path: ['content'], message: 'Required (or pass notes: [...] for a batch)' });
    }),
  output: modesOutput(createdOutput, { agent_instructions: strs, next_suggestions: str, vault_id: str, vault_name: str }, warningsOutput, batchOutput, planPreviewOutput),
  annotations: { title: 'Create note', readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  async handler(args, ctx) {
    const defaultType = (await vaultConfig(ctx)).default_note_type;
    if (args.notes && args.dry_run) return { ...(await ctx.notes.previewPlan('create_note', batchItems(args.notes, defaultType))), ...(await servedBy(ctx)) };
    if (args.notes) return { ...(await createBatch(args.notes, ctx, defaultType)), ...(await servedBy(ctx)) };
    const metadata = (args.metadata ?? {}) as Metadata;
    const note = await ctx.notes.create({ title: args.title as string, content: args.content as string, type: args.type ?? defaultType, metadata });
    const warnings = await schemaWarnings(ctx, note.type, metadata, 'create', Object.keys(metadata));
    const instructions = (await ctx.tryResolve(NOTE_TYPES)?.get(note.type ?? ''))?.description.agentInstructions ?? [];
    return {
      ...renderCreated(note),
      agent_instructions: instructions,
      next_suggestions: instructions.length ? `Consider following these guidelines for ${note.type} notes: ${instructions.join(', ')}` : '',
      ...(await servedBy(ctx)),
      ...withWarnings(warnings),
    };
  },
});

/** Which vault served the call: with vault_id routing, an agent must be able to tell. */
async function servedBy(ctx: ToolContext): Promise<{ vault_id: string; vault_name: string }> {
  const entry = await ctx.tryResolve(VAULT_REGISTRY)?.get(ctx.vault.id).catch(() => undefined);
  return { vault_id: ctx.vault.id, vault_name: entry?.name ?? ctx.vault.id };
}

/**
 * Items are independent (seed 000: each succeeds or fails alone), and the batch is one journalled
 * operation (decision 025): a crash mid-way is finished at the next start, so the caller's notes
 * all exist then. Results keep the input order.
 */
async function createBatch(notes: Array<z.output<typeof noteInput>>, ctx: ToolContext, defaultType: string) {
  ctx.progress.start('creating notes', notes.length);
  const applied = await ctx.notes.applyPlan('create_note', batchItems(notes, defaultType));
  ctx.progress.stop();
  const results = await Promise.all(
    notes.map(async (input, i) => {
      const outcome = applied.results[i] as PromiseSettledResult<Note>;
      if (outcome.status === 'rejected') {
        const error = toNotekernelError(outcome.reason);
        return { input, success: false as const, error: error.message, code: error.code };
      }
      const note = outcome.value;
      const metadata = (input.metadata ?? {}) as Metadata;
      const warnings = await schemaWarnings(ctx, note.type, metadata, 'create', Object.keys(metadata));
      return { input, success: true as const, result: { ...renderCreated(note), ...withWarnings(warnings) } };
    }),
  );
  const successful = results.filter((r) => r.success).length;
  return { total: notes.length, successful, failed: notes.length - successful, results, ...(applied.entryId ? { operation_id: applied.entryId } : {}) };
}

function batchItems(notes: Array<z.output<typeof noteInput>>, defaultType: string): PlanItem[] {
  return notes.map((input) => ({ kind: 'create' as const, input: { title: input.title, content: input.content, type: input.type ?? defaultType, metadata: (input.metadata ?? {}) as Metadata } }));
}
