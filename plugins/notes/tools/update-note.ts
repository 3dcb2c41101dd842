import { z } from 'zod';
import { ContentHashMismatchError, ValidationError, toNotekernelError } from '../../../kernel/errors.js';
import type { Metadata, Note } from '../../../kernel/note.js';

import { defineTool, type ToolContext } from '../../../kernel/tool.js';
import { withWarnings } from '../schema-warnings.js';
import { coerceMetadata } from '../coerce-metadata.js';
import {
  batchOutput,
  bool,
  modesOutput,
  planPreviewOutput,
  str,
  warningsOutput,
} from '../../../toolkit/tool-output.js';
import { CONTENT_HASH, pathString, planDryRunField, vaultIdField } from '../../../toolkit/tool-fields.js';
import { applyPlan, previewPlan, type PlanItem } from '../../../toolkit/plans/plan-runner.js';

const HASH_REQUIRED = 'content_hash is required: read the note (get_note or get_notes) and pass its content_hash';

// A batch item's fields are described once, on the single-update arguments.
const contentField = z.string().optional();
const metadataField = z.record(z.string(), z.unknown()).optional();

const updateItem = z.object({
  identifier: pathString().min(1),
  content: contentField,
  metadata: metadataField,
  content_hash: z.string({ error: HASH_REQUIRED }).min(1, HASH_REQUIRED),
});

type UpdateItem = z.output<typeof updateItem>;

export const updateNoteTool = defineTool({
  name: 'update_note',
  description:
    "Change a note's content and/or metadata, or many notes' (updates). A stale content_hash fails with content_hash_mismatch.",
  input: z
    .object({
      identifier: pathString().min(1).optional().describe('Note id (single update)'),
      content: contentField.describe('New markdown body; omit to keep it'),
      metadata: metadataField.describe('Fields to set, merged into the frontmatter; null removes one'),
      content_hash: z.string().min(1, HASH_REQUIRED).optional().describe(`${CONTENT_HASH} (single update; required)`),
      updates: z
        .array(updateItem)
        .min(1)
        .max(1000)
        .optional()
        .describe('Batch instead of one update; fields as for one'),
      dry_run: planDryRunField('Batch only. '),
      vault_id: vaultIdField,
    })
    .superRefine((args, issue) => {
      if (args.updates !== undefined) {
        if (args.identifier !== undefined)
          issue.addIssue({
            code: 'custom',
            path: ['identifier'],
            message: 'Give either identifier (one note) or updates (a batch), not both',
          });
        return;
      }
      if (args.identifier === undefined)
        issue.addIssue({
          code: 'custom',
          path: ['identifier'],
          message: 'Required (or pass updates: [...] for a batch)',
        });
      if (args.content_hash === undefined)
        issue.addIssue({ code: 'custom', path: ['content_hash'], message: HASH_REQUIRED });
    }),
  output: modesOutput(
    { id: str, updated: bool, timestamp: str, content_hash: str },
    warningsOutput,
    batchOutput,
    planPreviewOutput,
  ),
  annotations: {
    title: 'Update note',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: false,
  },
  async handler(args, ctx) {
    if (args.updates) {
      const read = new Map<string, Note>();
      const updates = await Promise.all(args.updates.map((u) => coerced(ctx, u, read)));
      return updateBatch(updates, ctx, args.dry_run, read);
    }
    return applyUpdate(ctx, {
      identifier: args.identifier as string,
      content_hash: args.content_hash as string,
      ...(args.content !== undefined ? { content: args.content } : {}),
      ...(args.metadata !== undefined ? { metadata: args.metadata } : {}),
    });
  },
});

/**
 * Metadata coerced to the note's type's schema ("3" → 3), for a batch; the note read for its type
 * is kept in `read`, so the plan does not read it again.
 */
async function coerced(ctx: ToolContext, item: UpdateItem, read: Map<string, Note>): Promise<UpdateItem> {
  if (!item.metadata) return item;
  const note = await ctx.notes.get(item.identifier).catch(() => undefined);
  if (note) read.set(item.identifier, note);
  const type = note?.type;
  const metadata = await coerceMetadata(ctx, type, item.metadata as Metadata);
  return metadata === item.metadata ? item : { ...item, metadata };
}

/** One note: one read-modify-write, the metadata coerced to the type of the note the store read. */
async function applyUpdate(ctx: ToolContext, item: UpdateItem) {
  if (item.content === undefined && item.metadata === undefined) {
    throw new ValidationError('Either content or metadata must be provided for an update.', {
      field: 'content',
      identifier: item.identifier,
    });
  }
  const given = item.metadata as Metadata | undefined;
  const { note, warnings } = await ctx.notes.update(
    item.identifier,
    async (current) => {
      const metadata = given && (await coerceMetadata(ctx, current.type, given));
      return { ...(item.content !== undefined ? { content: item.content } : {}), ...(metadata ? { metadata } : {}) };
    },
    item.content_hash,
  );
  return {
    id: note.id,
    updated: true,
    timestamp: note.updated,
    content_hash: note.contentHash,
    ...withWarnings(warnings),
  };
}

/**
 * A batch of distinct notes is one journalled operation (decision 025): planned, applied, and
 * finished after a crash; each note still succeeds or fails alone. A batch naming one note twice
 * runs in order, one update at a time, as two sequential calls would.
 */
async function updateBatch(updates: UpdateItem[], ctx: ToolContext, dryRun: boolean, read: Map<string, Note>) {
  const planItem = (item: UpdateItem) => planned(item, read.get(item.identifier));
  const distinct = new Set(updates.map((u) => u.identifier)).size === updates.length;
  if (dryRun) return previewPlan(ctx.notes, 'update_note', updates.map(planItem));
  if (!distinct) return updateOneByOne(updates, ctx);
  const empty = updates.map((u) => u.content === undefined && u.metadata === undefined);
  ctx.progress.start('updating notes', updates.length);
  const applied = await applyPlan(ctx.notes, 'update_note', updates.filter((_, i) => !empty[i]).map(planItem));
  ctx.progress.stop();
  let next = 0;
  const results = await Promise.all(
    updates.map(async (input, i) => {
      if (empty[i])
        return failure(
          input,
          new ValidationError('Either content or metadata must be provided for an update.', {
            field: 'content',
            identifier: input.identifier,
          }),
        );
      const outcome = applied.results[next++] as PromiseSettledResult<Note>;
      if (outcome.status === 'rejected') return failure(input, outcome.reason);
      const note = outcome.value;
      return {
        input,
        success: true,
        result: {
          id: note.id,
          updated: true,
          timestamp: note.updated,
          content_hash: note.contentHash,
          ...withWarnings(applied.warnings[next - 1] ?? []),
        },
      };
    }),
  );
  const successful = results.filter((r) => r.success).length;
  return {
    total: updates.length,
    successful,
    failed: updates.length - successful,
    results,
    ...(applied.entryId ? { operation_id: applied.entryId } : {}),
  };
}

function planned(item: UpdateItem, previous: Note | undefined): PlanItem {
  const metadata = item.metadata as Metadata | undefined;
  return {
    kind: 'update',
    id: item.identifier,
    change: {
      ...(item.content !== undefined ? { content: item.content } : {}),
      ...(metadata !== undefined ? { metadata } : {}),
    },
    expectedHash: item.content_hash,
    ...(previous ? { previous } : {}),
  };
}

function failure(input: UpdateItem, err: unknown) {
  const error = toNotekernelError(err);
  const mismatch =
    error instanceof ContentHashMismatchError
      ? { hash_mismatch: { current_hash: error.details.current_hash, provided_hash: error.details.provided_hash } }
      : {};
  return { input, success: false, error: error.message, code: error.code, ...mismatch };
}

async function updateOneByOne(updates: UpdateItem[], ctx: ToolContext) {
  const results = [];
  ctx.progress.start('updating notes', updates.length);
  for (const input of updates) {
    try {
      results.push({ input, success: true, result: await applyUpdate(ctx, input) });
    } catch (err) {
      results.push(failure(input, err));
    }
    ctx.progress.tick();
  }
  ctx.progress.stop();
  const successful = results.filter((r) => r.success).length;
  return { total: updates.length, successful, failed: updates.length - successful, results };
}
