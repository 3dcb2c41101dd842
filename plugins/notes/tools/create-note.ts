import { z } from 'zod';

import { defineTool, type ToolContext } from '../../../kernel/tool.js';
import { type NotekernelError, ValidationError, toNotekernelError } from '../../../kernel/errors.js';
import type { Metadata, Note } from '../../../kernel/note.js';
import { VAULT_REGISTRY } from '../../vaults/service.js';
import { NOTE_TYPES } from '../../note-types/service.js';
import { vaultConfig } from '../config.js';
import { renderCreated, createdOutput } from '../render.js';
import { withWarnings } from '../schema-warnings.js';
import { coerceMetadata } from '../coerce-metadata.js';
import { assertTypeOrNew } from '../type-guard.js';
import {
  batchOutput,
  modesOutput,
  planPreviewOutput,
  str,
  strs,
  warningsOutput,
} from '../../../toolkit/tool-output.js';
import { nameString, planDryRunField, titleString, vaultIdField } from '../../../toolkit/tool-fields.js';
import { applyPlan, previewPlan, type PlanItem } from '../../../toolkit/plans/plan-runner.js';

// A batch item's fields are described once, on the single-note arguments.
const noteFields = {
  type: nameString().min(1).optional(),
  title: titleString().trim().min(1),
  content: z.string(),
  metadata: z.record(z.string(), z.unknown()).optional(),
};
const noteInput = z.object(noteFields);
type NoteInput = z.output<typeof noteInput>;

/**
 * A batch item that does not fit its schema fails alone (seed 000: "failed items don't block
 * successful ones"): `.catch` keeps the item's JSON schema in tools/list and hands the handler
 * the item's own issues instead of refusing the whole call.
 */
interface InvalidItem {
  invalid: z.core.$ZodIssue[];
  input: unknown;
}
const batchItem = noteInput.catch(
  (caught): NoteInput => ({ invalid: caught.error.issues, input: caught.value }) as unknown as NoteInput,
);
const isInvalid = (item: NoteInput | InvalidItem): item is InvalidItem =>
  'invalid' in item && Array.isArray((item as InvalidItem).invalid);

export const createNoteTool = defineTool({
  name: 'create_note',
  description: "Create a note, or many (notes). Answers carry the type's agent instructions and name the vault.",
  input: z
    .object({
      type: noteFields.type.describe("Default: the vault's default_note_type"),
      title: titleString().trim().min(1).optional().describe('Single note'),
      content: z.string().optional().describe('Markdown body (single note)'),
      metadata: noteFields.metadata.describe("Frontmatter, checked against the type's schema"),
      notes: z.array(batchItem).min(1).max(1000).optional().describe('Batch instead of one note; fields as for one'),
      dry_run: planDryRunField('Batch only. '),
      vault_id: vaultIdField,
    })
    .superRefine((args, issue) => {
      // A name past its bound (kernel/name-limits.ts) refuses the whole call, as for one note:
      // that is a runaway argument, not one note among many gone wrong.
      args.notes?.forEach((item, i) => {
        if (!isInvalid(item)) return;
        for (const bad of item.invalid.filter((b) => b.code === 'too_big'))
          issue.addIssue({ code: 'custom', path: ['notes', i, ...bad.path.map(String)], message: bad.message });
      });
      if (args.notes !== undefined) return;
      if (args.title === undefined)
        issue.addIssue({ code: 'custom', path: ['title'], message: 'Required (or pass notes: [...] for a batch)' });
      if (args.content === undefined)
        issue.addIssue({ code: 'custom', path: ['content'], message: 'Required (or pass notes: [...] for a batch)' });
    }),
  output: modesOutput(
    createdOutput,
    { agent_instructions: strs, next_suggestions: str, vault_id: str, vault_name: str },
    warningsOutput,
    batchOutput,
    planPreviewOutput,
  ),
  annotations: {
    title: 'Create note',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: false,
  },
  async handler(args, ctx) {
    const defaultType = (await vaultConfig(ctx)).default_note_type;
    if (args.notes && args.dry_run) {
      const valid = args.notes.filter((item) => !isInvalid(item));
      return {
        ...(await previewPlan(ctx.notes, 'create_note', await batchItems(ctx, valid, defaultType))),
        ...(await servedBy(ctx)),
      };
    }
    if (args.notes) return { ...(await createBatch(args.notes, ctx, defaultType)), ...(await servedBy(ctx)) };
    const type = args.type ?? defaultType;
    await assertTypeOrNew(ctx, type);
    const metadata = ((await coerceMetadata(ctx, type, args.metadata as Metadata | undefined)) ?? {}) as Metadata;
    const { note, warnings } = await ctx.notes.create({
      title: args.title as string,
      content: args.content as string,
      type,
      metadata,
    });
    const instructions = (await ctx.tryResolve(NOTE_TYPES)?.get(note.type ?? ''))?.description.agentInstructions ?? [];
    return {
      ...renderCreated(note),
      agent_instructions: instructions,
      next_suggestions: instructions.length
        ? `Consider following these guidelines for ${note.type} notes: ${instructions.join(', ')}`
        : '',
      ...(await servedBy(ctx)),
      ...withWarnings(warnings),
    };
  },
});

/** Which vault served the call: with vault_id routing, an agent must be able to tell. */
async function servedBy(ctx: ToolContext): Promise<{ vault_id: string; vault_name: string }> {
  const entry = await ctx
    .tryResolve(VAULT_REGISTRY)
    ?.get(ctx.vault.id)
    .catch(() => undefined);
  return { vault_id: ctx.vault.id, vault_name: entry?.name ?? ctx.vault.id };
}

/**
 * Items are independent (seed 000: each succeeds or fails alone), and the batch is one journalled
 * operation (decision 025): a crash mid-way is finished at the next start, so the caller's notes
 * all exist then. Results keep the input order.
 */
async function createBatch(notes: Array<NoteInput | InvalidItem>, ctx: ToolContext, defaultType: string) {
  // Items refused before the plan (their arguments, a misspelt type) fail alone; the rest are one operation.
  const refused = await Promise.all(notes.map((item) => itemRefusal(ctx, item, defaultType)));
  const planned = notes.flatMap((item, i) => (refused[i] || isInvalid(item) ? [] : [item]));
  ctx.progress.start('creating notes', planned.length);
  const applied = planned.length
    ? await applyPlan(ctx.notes, 'create_note', await batchItems(ctx, planned, defaultType))
    : { results: [], warnings: [] };
  ctx.progress.stop();
  let next = 0;
  const results = await Promise.all(
    notes.map(async (item, i) => {
      const failed = refused[i];
      if (failed)
        return {
          input: isInvalid(item) ? item.input : item,
          success: false as const,
          error: failed.message,
          code: failed.code,
        };
      const input = item as NoteInput;
      const outcome = applied.results[next++] as PromiseSettledResult<Note>;
      if (outcome.status === 'rejected') {
        const error = toNotekernelError(outcome.reason);
        return { input, success: false as const, error: error.message, code: error.code };
      }
      return {
        input,
        success: true as const,
        result: { ...renderCreated(outcome.value), ...withWarnings(applied.warnings[next - 1] ?? []) },
      };
    }),
  );
  const successful = results.filter((r) => r.success).length;
  const entryId = 'entryId' in applied ? applied.entryId : undefined;
  return {
    total: notes.length,
    successful,
    failed: notes.length - successful,
    results,
    ...(entryId ? { operation_id: entryId } : {}),
  };
}

/** Why an item cannot go into the plan at all: its own arguments, or a type that is a typo. */
async function itemRefusal(
  ctx: ToolContext,
  item: NoteInput | InvalidItem,
  defaultType: string,
): Promise<NotekernelError | undefined> {
  try {
    if (isInvalid(item)) {
      const fields = item.invalid.map((issue) => issue.path.map(String).join('.') || '(item)');
      const detail = item.invalid.map((issue, k) => `${fields[k]}: ${issue.message}`).join('; ');
      return new ValidationError(`Invalid note: ${detail}`, { fields: [...new Set(fields)] });
    }
    await assertTypeOrNew(ctx, item.type ?? defaultType);
    return undefined;
  } catch (err) {
    return toNotekernelError(err);
  }
}

async function batchItems(ctx: ToolContext, notes: readonly NoteInput[], defaultType: string): Promise<PlanItem[]> {
  return Promise.all(
    notes.map(async (input) => {
      const type = input.type ?? defaultType;
      const metadata = ((await coerceMetadata(ctx, type, input.metadata as Metadata | undefined)) ?? {}) as Metadata;
      return { kind: 'create' as const, input: { title: input.title, content: input.content, type, metadata } };
    }),
  );
}
