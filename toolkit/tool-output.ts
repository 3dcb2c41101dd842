/**
 * zod fragments for tools' `output` schemas (decision 017). Output schemas travel in every
 * tools/list, so they carry types only: the tool's description says what the answer means.
 * A tool with several modes (one note or a batch, a dry run) declares one object holding every
 * mode's fields, each optional, rather than a union that would repeat the shared ones.
 */
import { z } from 'zod';

export const str = z.string();
export const num = z.number();
export const bool = z.boolean();
export const strs = z.array(z.string());
export const nullableStr = z.string().nullable();
/** A free-form object: metadata, a note's frontmatter, a config section. */
export const record = z.record(z.string(), z.unknown());

export const warningsOutput = { warnings: strs.optional() };

/** NoteService.previewPlan's answer: what a dry run of a journalled operation would do. */
export const planPreviewOutput = {
  dry_run: bool,
  operation: str,
  notes: z.array(
    z.object({
      index: num,
      action: str,
      id: str.optional(),
      to: str.optional(),
      title: z.object({ before: nullableStr, after: nullableStr }),
      metadata_changed: strs,
      diff: str,
    }),
  ),
  refused: z.array(z.object({ index: num, code: str, error: str })),
};

/** A batch's answer: one result per item, in order, each a success or a failure with its code. */
export const batchOutput = {
  total: num,
  successful: num,
  failed: num,
  results: z.array(z.object({ success: bool, error: str.optional(), code: str.optional() })),
  operation_id: str.optional(),
};

/** Every field optional: a tool answering in one of several shapes (see the file comment). */
export function modesOutput(...shapes: z.ZodRawShape[]): z.ZodObject {
  return z.object(Object.assign({}, ...shapes) as z.ZodRawShape).partial();
}
