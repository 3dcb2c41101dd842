import { z } from 'zod';
import { toNotekernelError } from '../../../kernel/errors.js';
import { defineTool, type ToolContext } from '../../../kernel/tool.js';
import { LINK_INDEX } from '../../links/service.js';
import { filesOf } from '../context.js';
import { moveNotes, previewMoves, type MoveDeps, type MoveOutcome, moveOutcomeOutput } from '../move.js';
import { planDryRunField } from '../../../toolkit/tool-fields.js';
import { bool, modesOutput, num, planPreviewOutput, str } from '../../../toolkit/tool-output.js';

const refusedMoves = z.array(z.object({ source: str, destination: str, error: str }));

const source = z.string().min(1).max(4_096).describe('the note to move, relative to the vault or absolute inside it');
const destination = z
  .string()
  .min(1)
  .max(4_096)
  .describe(
    'its new path, e.g. "Archive/2024/Plan.md", or a folder ("Archive/") to keep its name (folders are made as needed; an existing file is never overwritten)',
  );

function depsOf(ctx: ToolContext): MoveDeps {
  return { notes: ctx.notes, files: filesOf(ctx), links: ctx.resolve(LINK_INDEX) };
}

export const moveFile = defineTool({
  name: 'move_file',
  description:
    'Move (or rename) a note inside the vault. When its name changes, [[old name]] and [[old name|alias]] links to it in other notes are rewritten to the new name, as Obsidian does.',
  input: z.object({ source, destination, dry_run: planDryRunField() }),
  output: modesOutput(moveOutcomeOutput, { operation_id: str }, planPreviewOutput, { refused_moves: refusedMoves }),
  annotations: {
    title: 'Move a note',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: false,
  },
  async handler(args, ctx) {
    if (args.dry_run) return previewMoves(depsOf(ctx), [args], 'move_file');
    const { outcomes, operation_id } = await moveNotes(depsOf(ctx), [args], 'move_file');
    const [outcome] = outcomes;
    if (outcome instanceof Error) throw outcome;
    return { ...(outcome as MoveOutcome), ...(operation_id ? { operation_id } : {}) };
  },
});

export const batchMoveFiles = defineTool({
  name: 'batch_move_files',
  description:
    'Move several notes, each as move_file does (links rewritten), as one operation. Goes on after a failure; reports each move.',
  input: z.object({
    moves: z
      .array(z.object({ source, destination }).strict())
      .min(1)
      .max(1_000)
      .describe('the moves: [{"source": "old/path.md", "destination": "new/path.md"}, ...]'),
    dry_run: planDryRunField(),
  }),
  output: modesOutput(
    {
      succeeded: num,
      failed: num,
      results: z.array(
        z
          .object({ ok: bool, error: z.object({ code: str, message: str }).optional() })
          .extend(z.object(moveOutcomeOutput).partial().shape),
      ),
      operation_id: str,
    },
    planPreviewOutput,
    { refused_moves: refusedMoves },
  ),
  annotations: {
    title: 'Move several notes',
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: false,
    openWorldHint: false,
  },
  async handler(args, ctx) {
    if (args.dry_run) return previewMoves(depsOf(ctx), args.moves, 'batch_move_files');
    const { outcomes, operation_id } = await moveNotes(depsOf(ctx), args.moves, 'batch_move_files');
    const results = outcomes.map((outcome, k) => {
      if (!(outcome instanceof Error)) return { ok: true as const, ...outcome };
      const e = toNotekernelError(outcome);
      const move = args.moves[k] as { source: string; destination: string };
      return {
        ok: false as const,
        source: move.source,
        destination: move.destination,
        error: { code: e.code, message: e.message },
      };
    });
    const succeeded = results.filter((r) => r.ok).length;
    return { succeeded, failed: results.length - succeeded, results, ...(operation_id ? { operation_id } : {}) };
  },
});
