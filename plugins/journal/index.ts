/**
 * journal: the agent's view of the operation journal (decision 025) — `list_operations` shows
 * the recent multi-note operations (which tool, who asked, when, which notes, whether each can
 * be undone), `undo_operation` puts one back — itself as a journalled operation, listed and
 * undoable in turn. At open it finishes or rolls back what a dead process left (journal-recovery).
 * Served wherever the store keeps a journal; nothing otherwise.
 */
import { z } from 'zod';
import { operationJournal, type OperationJournal } from '../../toolkit/plans/journal.js';
import { listOperations, summarise, undoOperation } from '../../toolkit/plans/journal-undo.js';
import { recoverJournal } from '../../toolkit/plans/journal-recovery.js';
import { definePlugin } from '../../kernel/plugin.js';
import { defineTool } from '../../kernel/tool.js';
import { bool, str, strs } from '../../toolkit/tool-output.js';
import { limitField, nameString, vaultIdField } from '../../toolkit/tool-fields.js';

function listOperationsTool(journal: OperationJournal) {
  return defineTool({
    name: 'list_operations',
    description:
      'Recent multi-note operations (renames rewriting links, batches, moves, deletes, ...), newest first: who asked, when, state and the notes each touched.',
    input: z.object({
      limit: limitField(20, 100),
      vault_id: vaultIdField,
    }),
    output: z.object({
      total: z.number(),
      operations: z.array(
        z.object({
          id: str,
          operation: str,
          by: str.optional(),
          at: str,
          state: str,
          notes: strs,
          undoable: bool,
          undoes: str.optional(),
        }),
      ),
    }),
    annotations: { title: 'List operations', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    async handler(args) {
      const entries = await listOperations(journal);
      return { total: entries.length, operations: entries.slice(0, args.limit).map(summarise) };
    },
  });
}

function undoOperationTool(journal: OperationJournal) {
  return defineTool({
    name: 'undo_operation',
    description:
      'Undo an operation from list_operations: every note it changed, created or deleted goes back to how it was. Refused, naming the notes, if one changed since, unless force.',
    input: z.object({
      operation_id: nameString().min(1).describe('From list_operations'),
      force: z
        .boolean()
        .default(false)
        .describe('Undo anyway; changed notes keep their text, the old one in a conflict copy'),
      vault_id: vaultIdField,
    }),
    output: z.object({
      operation_id: str,
      undo_operation_id: str.optional(),
      restored: strs,
      deleted: strs,
      recreated: strs,
      moved_back: strs,
      conflict_copies: z.array(z.object({ id: str, copy: str })),
      failed: z.array(z.object({ id: str, error: str })).optional(),
    }),
    annotations: {
      title: 'Undo an operation',
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: false,
    },
    async handler(args, ctx) {
      return undoOperation(journal, ctx.notes, args.operation_id, args.force);
    },
  });
}

export const journalPlugin = definePlugin<Record<string, never>>({
  id: 'journal',
  description:
    'Finishes or rolls back an operation a dead process left open; lists recent multi-note operations and undoes one (where the store keeps an operation journal).',
  register(ctx) {
    const journal = operationJournal(ctx.store);
    if (!journal) return {};
    return {
      tools: [listOperationsTool(journal), undoOperationTool(journal)],
      hooks: {
        // Before anyone reads (the kernel runs vault.open once every plugin's listeners are in place).
        async 'vault.open'({ readOnly }) {
          if (!readOnly) await recoverJournal(journal, ctx.notes, ctx.logger);
        },
      },
    };
  },
});
