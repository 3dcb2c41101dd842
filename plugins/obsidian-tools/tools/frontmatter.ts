import { z } from 'zod';
import { toNotekernelError } from '../../../kernel/errors.js';
import type { MetadataValue } from '../../../kernel/note.js';
import { defineTool } from '../../../kernel/tool.js';
import { byPath, filesOf } from '../context.js';
import { editFrontmatter, FRONTMATTER_OPERATIONS, planFrontmatter } from '../frontmatter-edit.js';
import { planDryRunField } from '../../../toolkit/tool-fields.js';
import { notePath } from '../vault-paths.js';
import { bool, modesOutput, num, planPreviewOutput, str, strs } from '../../../toolkit/tool-output.js';
import { applyPlan, previewPlan } from '../../../toolkit/plans/plan-runner.js';

const fileOutcome = z.object({
  path: str,
  ok: bool,
  value: z.unknown().optional(),
  error: z.object({ code: str, message: str }).optional(),
});

const field = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .refine((f) => !/[\n\r\0]/.test(f), 'a field name is one line')
  .describe('the frontmatter field, e.g. "tags", "status", "company"');
const value = z
  .string()
  .max(100_000)
  .optional()
  .describe('the value; lists and mappings as JSON, e.g. \'["tag1", "tag2"]\' (not needed for remove)');
const operation = z
  .enum(FRONTMATTER_OPERATIONS)
  .default('set')
  .describe(
    'set adds or replaces; remove deletes the field; append adds to a list (made if missing), skipping duplicates',
  );

export const updateFrontmatter = defineTool({
  name: 'update_frontmatter',
  description:
    'Change one frontmatter field of a note: set, remove, or append to a list. The body and every other field stay exactly as they were.',
  input: z.object({
    path: z.string().min(1).max(4_096).describe('the note, relative to the vault or absolute inside it'),
    field,
    value,
    operation,
  }),
  output: z.object({ path: str, field: str, operation: str, value: z.unknown() }),
  annotations: {
    title: 'Update frontmatter',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: false,
  },
  async handler(args, ctx) {
    const files = filesOf(ctx);
    const { rel } = notePath(files, args.path, 'path');
    const now = await editFrontmatter(ctx.notes, files, rel, {
      field: args.field,
      value: args.value,
      operation: args.operation,
    });
    return { path: rel, field: args.field, operation: args.operation, value: now ?? null };
  },
});

export const batchUpdateFrontmatter = defineTool({
  name: 'batch_update_frontmatter',
  description:
    'The same frontmatter change (set / remove / append) on several notes. Goes on after a failure; reports each file.',
  input: z.object({
    paths: z
      .array(z.string().min(1).max(4_096))
      .min(1)
      .max(1_000)
      .describe('the notes, each relative to the vault or absolute inside it'),
    field,
    value,
    operation,
    dry_run: planDryRunField(),
  }),
  output: modesOutput(
    { field: str, operation: str, succeeded: num, failed: num, results: z.array(fileOutcome), operation_id: str },
    planPreviewOutput,
    { refused_files: z.array(fileOutcome) },
  ),
  annotations: {
    title: 'Update frontmatter of several notes',
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: false,
    openWorldHint: false,
  },
  async handler(args, ctx) {
    const files = filesOf(ctx);
    const edit = { field: args.field, value: args.value, operation: args.operation };
    const results: Array<{
      path: string;
      ok: boolean;
      value?: MetadataValue | null;
      error?: { code: string; message: string };
    }> = [];
    const planned: Array<{ rel: string; text: string; hash: string; value: MetadataValue | undefined; at: number }> =
      [];
    for (const input of args.paths) {
      try {
        const { rel } = notePath(files, input, 'paths');
        const same = planned.find((p) => p.rel === rel);
        if (same) {
          // Named twice: one change (the plan holds each file once).
          results.push({ path: rel, ok: true, value: same.value ?? null });
          continue;
        }
        const plan = await planFrontmatter(files, rel, edit);
        results.push({ path: rel, ok: true, value: plan.value ?? null });
        if (plan.text !== plan.current.text)
          planned.push({ rel, text: plan.text, hash: plan.current.hash, value: plan.value, at: results.length - 1 });
      } catch (err) {
        results.push({ path: input, ok: false, error: errorOf(err) });
      }
    }
    // Every changed file is one journalled operation (decision 025): all or none after a crash, undoable.
    const items = planned.map((p) => ({ kind: 'text' as const, path: p.rel, text: p.text, expectedHash: p.hash }));
    if (args.dry_run)
      return {
        ...(await previewPlan(ctx.notes, 'batch_update_frontmatter', items)),
        ...(results.some((r) => !r.ok) ? { refused_files: results.filter((r) => !r.ok) } : {}),
      };
    const applied = await applyPlan(ctx.notes, 'batch_update_frontmatter', items);
    planned.forEach((p, k) => {
      const outcome = applied.results[k] as PromiseSettledResult<unknown>;
      if (outcome.status === 'rejected') results[p.at] = { path: p.rel, ok: false, error: errorOf(outcome.reason) };
    });
    const succeeded = results.filter((r) => r.ok).length;
    return {
      field: args.field,
      operation: args.operation,
      succeeded,
      failed: results.length - succeeded,
      results,
      ...(applied.entryId ? { operation_id: applied.entryId } : {}),
    };
  },
});

function errorOf(err: unknown): { code: string; message: string } {
  const e = toNotekernelError(err);
  return { code: e.code, message: e.message };
}

export const MATCH_TYPES = ['contains', 'equals'] as const;

function matches(have: MetadataValue | undefined, wanted: string, matchType: (typeof MATCH_TYPES)[number]): boolean {
  if (have === undefined || have === null) return false;
  const text = (v: MetadataValue): string => (typeof v === 'string' ? v : JSON.stringify(v));
  if (matchType === 'equals')
    return Array.isArray(have) ? have.length === 1 && text(have[0] as MetadataValue) === wanted : text(have) === wanted;
  const folded = wanted.toLocaleLowerCase();
  if (Array.isArray(have))
    return have.some(
      (item) => text(item).toLocaleLowerCase() === folded || text(item).toLocaleLowerCase() === `[[${folded}]]`,
    );
  return text(have).toLocaleLowerCase().includes(folded);
}

export const listFilesByFrontmatter = defineTool({
  name: 'list_files_by_frontmatter',
  description:
    'Notes whose frontmatter field matches a value: "contains" (default) — the value is an item of the list, or part of the text (case ignored); "equals" — exactly the value. E.g. field "tags", value "meeting". Sorted vault paths.',
  input: z.object({
    field,
    value: z.string().max(10_000).describe('the value to match'),
    match_type: z.enum(MATCH_TYPES).default('contains').describe('How the value must match'),
  }),
  // The seed's answer: the sorted list itself (structuredContent carries it as { result }).
  output: z.object({ result: strs }),
  annotations: { title: 'Find notes by frontmatter', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async handler(args, ctx) {
    const hits = (await ctx.notes.list())
      .filter((note) => matches(note.metadata[args.field], args.value, args.match_type))
      .map((note) => note.id);
    return hits.sort(byPath);
  },
});
