/**
 * One safe delete, shared by delete_note and bulk_delete_notes: the seed's process of checking
 * incoming links, asking for confirmation (when the vault config requires it, or when other
 * notes link here), backing the file up, then deleting it only if it is still the file that
 * was checked and backed up (compare-and-swap on its hash).
 */
import { ContentHashMismatchError, ValidationError } from '../../kernel/errors.js';
import type { ToolContext } from '../../kernel/tool.js';
import { contentHash } from '../../toolkit/hash.js';
import { toRelative } from '../../toolkit/files/paths.js';
import { LINKS } from '../links/service.js';
import { BACKUPS } from '../vault-config/service.js';
import { vaultConfig } from './config.js';
import type { Note } from '../../kernel/note.js';
import { locationOf } from '../../toolkit/note-location.js';

export interface DeleteOutcome {
  id: string;
  deleted: true;
  /** A soft delete: the file is kept at backup_path. */
  soft?: true;
  timestamp: string;
  backup_path?: string;
  warnings?: string[];
  incoming_links?: string[];
}

/**
 * `soft` (seed 000's soft deletion: "marked as deleted but preserved on filesystem"): the note
 * leaves every tool as a deleted one does, and its file is always kept under the vault's
 * backups, whatever `create_backups` says; where no copy can be kept nothing is deleted.
 */
export async function deleteNoteSafely(
  ctx: ToolContext,
  identifier: string,
  options: { confirm: boolean; expectedHash?: string; soft?: boolean },
): Promise<DeleteOutcome> {
  const checked = await checkDeletion(ctx, identifier, options);
  if (options.soft) checked.createBackups = true;
  const backupPath = await backUp(ctx, checked);
  if (options.soft && !backupPath) {
    throw new ValidationError(
      `A soft delete keeps the note's file, and this vault cannot keep one (${checked.warnings.at(-1) ?? 'no backups'}). Nothing was deleted.`,
      { field: 'soft', identifier: checked.note.id },
    );
  }
  await ctx.notes.delete(checked.note.id, checked.currentHash);
  return { ...outcomeOf(checked, backupPath), ...(options.soft ? { soft: true } : {}) };
}

/** A note that may be deleted: read, its incoming links checked, confirmation given where needed. */
export interface CheckedDeletion {
  note: Note;
  relPath?: string;
  raw?: string;
  currentHash: string;
  sources: string[];
  warnings: string[];
  createBackups: boolean;
}

export async function checkDeletion(
  ctx: ToolContext,
  identifier: string,
  options: { confirm: boolean; expectedHash?: string },
): Promise<CheckedDeletion> {
  const config = await vaultConfig(ctx);
  const note = await ctx.notes.require(identifier);
  const files = ctx.notes.store.files;
  const relPath = files ? toRelative(files.root, locationOf(note).path) : undefined;
  // The raw text is what gets backed up, and its hash is what the delete is checked against.
  const raw = files && relPath ? await files.readText(relPath) : undefined;
  const currentHash = raw !== undefined ? contentHash(raw) : note.contentHash;
  if (options.expectedHash !== undefined && options.expectedHash !== currentHash) {
    throw new ContentHashMismatchError(currentHash, options.expectedHash, { identifier: note.id });
  }
  const warnings: string[] = [];
  const links = ctx.tryResolve(LINKS);
  const sources = links
    ? [...new Set((await links.incoming(note.id)).map((l) => l.source_note_id).filter((s) => s !== note.id))].sort()
    : [];
  if (!links) warnings.push('Incoming links were not checked: the links plugin is not loaded.');
  if (sources.length)
    warnings.push(
      `Note has incoming links from ${sources.length} note(s) that will become broken: ${sources.join(', ')}`,
    );
  if (!options.confirm && (config.deletion.require_confirmation || sources.length)) {
    const why =
      sources.length && !config.deletion.require_confirmation ? ` because ${sources.length} note(s) link to it` : '';
    throw new ValidationError(`Deleting note '${note.id}' requires confirmation${why}. Set confirm=true to proceed.`, {
      field: 'confirm',
      identifier: note.id,
      ...(sources.length ? { incoming_links: sources } : {}),
    });
  }
  return {
    note,
    ...(relPath !== undefined ? { relPath } : {}),
    ...(raw !== undefined ? { raw } : {}),
    currentHash,
    sources,
    warnings,
    createBackups: config.deletion.create_backups,
  };
}

/** The backup the vault config asks for; its path, or a warning on `checked` when none can be made. */
export async function backUp(ctx: ToolContext, checked: CheckedDeletion): Promise<string | undefined> {
  if (!checked.createBackups) return undefined;
  const backups = ctx.tryResolve(BACKUPS);
  if (!backups || !checked.relPath) {
    checked.warnings.push('No backup was made: backups need the vault-config plugin and raw file access.');
    return undefined;
  }
  const entry = { relPath: checked.relPath, ...(checked.raw !== undefined ? { text: checked.raw } : {}) };
  return (
    await backups.backup(`note-${locationOf(checked.note).filename.replace(/\.md$/i, '')}`, [entry], {
      id: checked.note.id,
      title: checked.note.title,
    })
  ).path;
}

export function outcomeOf(checked: CheckedDeletion, backupPath: string | undefined): DeleteOutcome {
  const { note, warnings, sources } = checked;
  return {
    id: note.id,
    deleted: true,
    timestamp: new Date().toISOString(),
    ...(backupPath ? { backup_path: backupPath } : {}),
    ...(warnings.length ? { warnings } : {}),
    ...(sources.length ? { incoming_links: sources } : {}),
  };
}
