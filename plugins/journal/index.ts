/**
 * journal: the agent's view of the operation journal (decision 025) — `list_operations` shows
 * the recent multi-note operations (which tool, who asked, when, which notes, whether each can
 * be undone), `undo_operation` puts one back — itself as a journalled operation, listed and
 * undoable in turn. Served wherever the store keeps a journal; nothing otherwise.
 */
import { z } from 'zod';
import type { JournalStorage } from '../../kernel/journal.js';
import { listOperations, summarise, undoOperation } from '../../kernel/journal-undo.js';
import { definePlugin } from '../../kernel/plugin.js';
import { defineTool } from '../../kernel/tool.js';
import { vaultIdField } from '../../kernel/vault-id.js';
import { bool, str, strs } from '../../kernel/tool-output.js';

function listOperationsTool(journal: JournalStorage) {
  return defineTool({
    name: 'list_operations',
    description: 'Recent multi-note operations (renames with link rewrites, batches, moves, deletes, ...), newest first: id, tool, who asked, time, state and the notes each touched. undo_operation takes an id from here.',
    input: z.object({
      limit: z.number().int().min(1).max(100).default(20).describe('how many, newest first'),
      vault_id: vaultIdField,
    }),
    output: z.object({ total: z.number(), operations: z.array(z.object({ id: str, operation: str, by: str.optional(), at: str, state: str, notes: strs, undoable: bool, undoes: str.optional() })) }),
    annotations: { title: 'List operations', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    async handler(args) {
      const entries = await listOperations(journal);
      return { total: entries.length, operations: entries.slice(0, args.limit).map(summarise) };
    },
  });
}

function undoOperationTool(journal: JournalStorage) {
  return defineTool({
    name: 'undo_operation',
    description:
      'Undo one operation from list_operations: every note it changed gets its previous text, title and metadata back; notes it created are deleted, notes it deleted come back. Refused, naming the notes, when one changed since, unless force: true (then that note keeps its current text and its previous state becomes a conflict copy).',
    input: z.object({
      operation_id: z.string().min(1).describe('the id list_operations shows'),
      force: z.boolean().default(false).describe('undo even where a note changed since, keeping that note and adding its previous state as a conflict copy'),
      vault_id: vaultIdField,
    }),
    output: z.object({ operation_id: str, undo_operation_id: str.optional(), restored: strs, deleted: strs, recreated: strs, moved_back: strs, conflict_copies: z.array(z.object({ id: str, copy: str })), failed: z.array(z.object({ id: str, error: str })).optional() }),
    annotations: { title: 'Undo an operation', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    async handler(args, ctx) {
      return undoOperation(journal, ctx.notes, args.operation_id, args.force);
    },
  });
}

export const journalPlugin = definePlugin<Record<string, never>>({
  id: 'journal',
  description: 'Lists recent multi-note operations and undoes one (where the store keeps an operation journal).',
  register(ctx) {
    const journal = ctx.store.journal;
    return { tools: journal ? [listOperationsTool(journal), undoOperationTool(journal)] : [] };
  },
});
