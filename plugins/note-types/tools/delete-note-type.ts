import fs from 'node:fs/promises';
import { z } from 'zod';
import type { VaultFiles } from '../../../kernel/backend.js';
import { ConflictError, ValidationError, toNotekernelError } from '../../../kernel/errors.js';
import type { Note } from '../../../kernel/note.js';
import { locationOf } from '../../../toolkit/note-location.js';
import { defineTool } from '../../../kernel/tool.js';
import { toRelative } from '../../../toolkit/files/paths.js';
import { DEFAULT_VAULT_CONFIG } from '../../../toolkit/vault-config.js';
import { BACKUPS, VAULT_CONFIG } from '../../vault-config/service.js';
import type { NoteTypes } from '../service.js';
import { requireType } from './get-note-type-info.js';
import { assertNoClashes, deletionItems, migrateNotes, migrationItems } from './migrate-notes.js';
import type { NoteService } from '../../../kernel/notes.js';
import { bool, modesOutput, num, planPreviewOutput, str, warningsOutput } from '../../../toolkit/tool-output.js';
import { confirmField, nameString, planDryRunField, vaultIdField } from '../../../toolkit/tool-fields.js';
import { applyPlan, previewPlan } from '../../../toolkit/plans/plan-runner.js';

export function deleteNoteTypeTool(types: NoteTypes, files: VaultFiles) {
  return defineTool({
    name: 'delete_note_type',
    description:
      'Delete a note type. If it holds notes: action error refuses, migrate moves them to target_type, delete deletes them (backed up; at most max_bulk_delete).',
    input: z.object({
      type_name: nameString().min(1),
      action: z.enum(['error', 'migrate', 'delete']).default('error').describe('For its notes'),
      target_type: nameString().min(1).optional().describe('Where migrate moves the notes'),
      confirm: confirmField,
      dry_run: planDryRunField(),
      vault_id: vaultIdField,
    }),
    output: modesOutput(
      {
        success: bool,
        message: str,
        result: z.object({
          name: str,
          deleted: bool,
          timestamp: str,
          action: str,
          notes_affected: num,
          backup_path: str.optional(),
          migration_target: str.optional(),
          ...warningsOutput,
        }),
        operation_id: str,
      },
      planPreviewOutput,
      { type_name: str, action: str, migration_target: str },
    ),
    annotations: {
      title: 'Delete note type',
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: false,
      openWorldHint: false,
    },
    async handler(args, ctx) {
      const config = (await ctx.tryResolve(VAULT_CONFIG)?.get()) ?? DEFAULT_VAULT_CONFIG;
      const info = await requireType(types, args.type_name);
      if (!config.deletion.allow_note_type_deletion) {
        throw new ValidationError(
          'Note type deletion is disabled in this vault (deletion.allow_note_type_deletion: false in .flint-note/config.yml).',
          {
            field: 'type_name',
            setting: 'deletion.allow_note_type_deletion',
          },
        );
      }
      if (info.name === config.default_note_type) {
        throw new ValidationError(
          `'${info.name}' is the vault's default note type (default_note_type) and cannot be deleted.`,
          { field: 'type_name', value: info.name },
        );
      }
      const notes = await readAll(ctx.notes, (await ctx.notes.list({ type: info.name })).map((n) => n.id).sort());
      const target = args.action === 'migrate' ? await migrationTarget(types, info.name, args.target_type) : undefined;
      if (args.action === 'error' && notes.length > 0) {
        throw new ConflictError(
          `Note type '${info.name}' contains ${notes.length} note(s); use action 'migrate' with target_type, or action 'delete'.`,
          { type_name: info.name, note_count: notes.length, notes: notes.slice(0, 10).map((n) => n.id) },
        );
      }
      if (args.action === 'delete' && notes.length > config.deletion.max_bulk_delete) {
        throw new ValidationError(
          `Deleting note type '${info.name}' would delete ${notes.length} notes, more than max_bulk_delete (${config.deletion.max_bulk_delete}); migrate them instead or raise the limit in .flint-note/config.yml.`,
          { field: 'action', note_count: notes.length, max_bulk_delete: config.deletion.max_bulk_delete },
        );
      }
      if (args.dry_run) {
        if (target) await assertNoClashes(ctx.notes, notes, target);
        const items = target ? migrationItems(notes, target) : args.action === 'delete' ? deletionItems(notes) : [];
        return {
          ...(await previewPlan(ctx.notes, 'delete_note_type', items)),
          type_name: info.name,
          action: args.action,
          ...(target ? { migration_target: target } : {}),
        };
      }
      if (config.deletion.require_confirmation && !args.confirm) {
        throw new ValidationError(
          `Deleting note type '${info.name}' (action '${args.action}', ${notes.length} note(s)) requires confirmation. Set confirm=true to proceed.`,
          { field: 'confirm', action: args.action, note_count: notes.length, notes: notes.map((n) => n.id) },
        );
      }
      const warnings: string[] = [];
      let backupPath: string | undefined;
      if (config.deletion.create_backups) {
        const backups = ctx.tryResolve(BACKUPS);
        if (!backups) warnings.push('No backup was made: the vault-config plugin is not loaded.');
        else {
          const entries = [
            ...(info.hasDescription ? [{ relPath: types.descriptionPath(info.name) }] : []),
            ...notes.map((n) => ({ relPath: toRelative(files.root, locationOf(n).path) })),
          ];
          backupPath = (await backups.backup(`type-${info.name}`, entries, { type: info.name, action: args.action }))
            .path;
        }
      }
      let operationId: string | undefined;
      if (target) operationId = await migrateNotes(ctx.notes, notes, target);
      if (args.action === 'delete') operationId = await deleteAll(ctx.notes, notes, backupPath);
      if (info.hasDescription) await files.remove(types.descriptionPath(info.name));
      try {
        await fs.rmdir(files.resolve(info.name));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOTEMPTY') throw err;
        warnings.push(`The folder ${info.name}/ was kept: it still holds files that are not notes.`);
      }
      return {
        success: true,
        message: `Note type '${info.name}' deleted successfully`,
        result: {
          name: info.name,
          deleted: true,
          timestamp: new Date().toISOString(),
          action: args.action,
          notes_affected: notes.length,
          ...(backupPath ? { backup_path: backupPath } : {}),
          ...(target ? { migration_target: target } : {}),
          ...(warnings.length ? { warnings } : {}),
        },
        ...(operationId ? { operation_id: operationId } : {}),
      };
    },
  });
}

async function migrationTarget(types: NoteTypes, from: string, target: string | undefined): Promise<string> {
  if (target === undefined)
    throw new ValidationError("action 'migrate' needs target_type: the type to move the notes to.", {
      field: 'target_type',
    });
  const info = await requireType(types, target, 'target_type');
  if (info.name === from)
    throw new ValidationError('target_type must differ from type_name.', { field: 'target_type', value: target });
  return info.name;
}

/** Fresh reads, so each later move or delete is checked against the hash of what is on disk now. */
async function readAll(notes: { get(id: string): Promise<Note | undefined> }, ids: string[]): Promise<Note[]> {
  const read = await Promise.all(ids.map((id) => notes.get(id)));
  return read.filter((n): n is Note => n !== undefined);
}

/** One journalled operation; a note that cannot be deleted keeps the type (the others are gone, and undo_operation brings them back). */
async function deleteAll(
  notes: NoteService,
  list: Note[],
  backupPath: string | undefined,
): Promise<string | undefined> {
  const applied = await applyPlan(notes, 'delete_note_type', deletionItems(list));
  const failedAt = applied.results.findIndex((r) => r.status === 'rejected');
  if (failedAt < 0) return applied.entryId;
  const failed = list[failedAt] as Note;
  const error = toNotekernelError((applied.results[failedAt] as PromiseRejectedResult).reason);
  const deleted = list.filter((_, k) => applied.results[k]?.status === 'fulfilled').map((n) => n.id);
  throw new ConflictError(
    `Deleting note ${failed.id} failed (${error.message}); the note type was kept. ${deleted.length} note(s) were deleted${backupPath ? `, backed up in ${backupPath}` : ''}${applied.entryId ? `; undo_operation ${applied.entryId} brings them back` : ''}.`,
    {
      failed: failed.id,
      cause: error.toBody(),
      deleted,
      ...(backupPath ? { backup_path: backupPath } : {}),
      ...(applied.entryId ? { operation_id: applied.entryId } : {}),
    },
  );
}
