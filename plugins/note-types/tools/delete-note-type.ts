import fs from 'node:fs/promises';
import { z } from 'zod';
import type { VaultFiles } from '../../../kernel/backend.js';
import { ConflictError, ValidationError, toNotekernelError } from '../../../kernel/errors.js';
import { locationOf, type Note } from '../../../kernel/note.js';
import { defineTool } from '../../../kernel/tool.js';
import { toRelative } from '../../../toolkit/files/paths.js';
import { vaultIdField } from '../../../kernel/vault-id.js';
import { BACKUPS, DEFAULT_VAULT_CONFIG, VAULT_CONFIG } from '../../vault-config/index.js';
import type { NoteTypes } from '../service.js';
import { requireType } from './get-note-type-info.js';
import { migrateNotes } from './migrate-notes.js';
import { bool, num, str, warningsOutput } from '../../../kernel/tool-output.js';
import { confirmField } from '../../../toolkit/tool-fields.js';

export function deleteNoteTypeTool(types: NoteTypes, files: VaultFiles) {
  return defineTool({
    name: 'delete_note_type',
    description:
      'Delete a note type. If it holds notes: action error refuses, migrate moves them to target_type, delete deletes them (backed up; at most max_bulk_delete).',
    input: z.object({
      type_name: z.string().min(1),
      action: z.enum(['error', 'migrate', 'delete']).default('error').describe('For its notes'),
      target_type: z.string().min(1).optional().describe('Where migrate moves the notes'),
      confirm: confirmField,
      vault_id: vaultIdField,
    }),
    output: z.object({ success: bool, message: str, result: z.object({ name: str, deleted: bool, timestamp: str, action: str, notes_affected: num, backup_path: str.optional(), migration_target: str.optional(), ...warningsOutput }) }),
    annotations: { title: 'Delete note type', readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    async handler(args, ctx) {
      const config = (await ctx.tryResolve(VAULT_CONFIG)?.get()) ?? DEFAULT_VAULT_CONFIG;
      const info = await requireType(types, args.type_name);
      if (!config.deletion.allow_note_type_deletion) {
        throw new ValidationError('Note type deletion is disabled in this vault (deletion.allow_note_type_deletion: false in .flint-note/config.yml).', {
          field: 'type_name',
          setting: 'deletion.allow_note_type_deletion',
        });
      }
      if (info.name === config.default_note_type) {
        throw new ValidationError(`'${info.name}' is the vault's default note type (default_note_type) and cannot be deleted.`, { field: 'type_name', value: info.name });
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
          const entries = [...(info.hasDescription ? [{ relPath: types.descriptionPath(info.name) }] : []), ...notes.map((n) => ({ relPath: toRelative(files.root, locationOf(n).path) }))];
          backupPath = (await backups.backup(`type-${info.name}`, entries, { type: info.name, action: args.action })).path;
        }
      }
      if (target) await migrateNotes(ctx.notes, notes, target);
      if (args.action === 'delete') await deleteAll(ctx.notes, notes, backupPath);
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
      };
    },
  });
}

async function migrationTarget(types: NoteTypes, from: string, target: string | undefined): Promise<string> {
  if (target === undefined) throw new ValidationError("action 'migrate' needs target_type: the type to move the notes to.", { field: 'target_type' });
  const info = await requireType(types, target, 'target_type');
  if (info.name === from) throw new ValidationError('target_type must differ from type_name.', { field: 'target_type', value: target });
  return info.name;
}

/** Fresh reads, so each later move or delete is checked against the hash of what is on disk now. */
async function readAll(notes: { get(id: string): Promise<Note | undefined> }, ids: string[]): Promise<Note[]> {
  const read = await Promise.all(ids.map((id) => notes.get(id)));
  return read.filter((n): n is Note => n !== undefined);
}

async function deleteAll(notes: { delete(id: string, hash?: string): Promise<Note> }, list: Note[], backupPath: string | undefined): Promise<void> {
  const deleted: string[] = [];
  for (const note of list) {
    try {
      await notes.delete(note.id, note.contentHash);
      deleted.push(note.id);
    } catch (err) {
      const error = toNotekernelError(err);
      throw new ConflictError(
        `Deleting note ${note.id} failed (${error.message}); the note type was kept. ${deleted.length} note(s) were deleted before it${backupPath ? `, backed up in ${backupPath}` : ''}.`,
        { failed: note.id, cause: error.toBody(), deleted, ...(backupPath ? { backup_path: backupPath } : {}) },
      );
    }
  }
}
