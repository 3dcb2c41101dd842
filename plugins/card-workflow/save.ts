/**
 * Writes a card through the store's contained, atomic file access, into the output directory
 * only. An existing card is copied to `<name>.backup` first (or the save is refused, per
 * `create_backup`): never silently overwritten. Symbolic links are not written through.
 * Afterwards the index is refreshed and the note announced, so the card is a note like any other.
 */
import type { Stats } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { NoteStore, VaultFiles } from '../../kernel/backend.js';
import { ConflictError, ContentHashMismatchError, PathOutsideVaultError } from '../../kernel/errors.js';
import type { NoteService } from '../../kernel/notes.js';
import { contentHash } from '../../toolkit/hash.js';
import { isInside } from '../../toolkit/files/paths.js';
import { safeFilename } from './filename.js';

export interface CardSaverDeps {
  files: VaultFiles;
  store: NoteStore;
  notes: NoteService;
  /** Vault-relative; '' is the vault root. */
  outputDir: string;
  /** The storage backend's id, named when a saved card lands where it does not read notes. */
  backendName: string;
  createBackup: boolean;
  sanitize: boolean;
  /** Set when `files` is an output_directory outside the vault: cards there are files, not notes. */
  external?: string;
}

export interface SavedCard {
  status: 'saved';
  filepath: string;
  relative_path: string;
  filename: string;
  requested_filename: string;
  sanitized: boolean;
  created: boolean;
  backup_created: boolean;
  backup_path?: string;
  unchanged?: boolean;
  note_id: string | null;
  message: string;
}

export type CardSaver = (formattedCard: string, filename: string) => Promise<SavedCard>;

export function createCardSaver(deps: CardSaverDeps): CardSaver {
  const { files, outputDir } = deps;
  const inOutput = (name: string) => (outputDir ? `${outputDir}/${name}` : name);

  return async (formattedCard, requested) => {
    const { filename, sanitized } = safeFilename(requested, { sanitize: deps.sanitize });
    const rel = inOutput(filename);
    if (outputDir) await files.mkdir(outputDir);
    if (deps.external) await fs.mkdir(deps.external, { recursive: true });
    const dirAbsolute = await fs.realpath(outputDir ? files.resolve(outputDir) : files.root);
    const absolute = path.join(dirAbsolute, filename);
    if (!isInside(dirAbsolute, absolute) || path.dirname(absolute) !== dirAbsolute) {
      throw new PathOutsideVaultError(requested, 'it resolves outside the output directory');
    }
    files.resolve(rel); // the store's own containment check (symlinked folders out of the vault)

    const existing = await lstat(absolute);
    if (existing?.isSymbolicLink())
      throw new PathOutsideVaultError(
        requested,
        'the card file is a symbolic link, and save_card does not write through links',
      );
    if (existing && !existing.isFile())
      throw new ConflictError(`"${filename}" exists in the output directory and is not a file.`, {
        filepath: absolute,
      });

    const base = { filepath: absolute, relative_path: rel, filename, requested_filename: requested, sanitized };
    let backupRel: string | undefined;
    let expectedHash: string | null = null;
    if (existing) {
      const old = (await files.readText(rel)) ?? '';
      if (old === formattedCard) {
        const note = deps.external ? undefined : await deps.store.get(rel);
        return {
          status: 'saved',
          ...base,
          created: false,
          backup_created: false,
          unchanged: true,
          note_id: note?.id ?? null,
          message: `✅ Card already saved with this content.\n\nLocation: ${absolute}`,
        };
      }
      if (!deps.createBackup) {
        throw new ConflictError(
          `Card "${filename}" already exists and file_operations.create_backup is off, so it is not overwritten. Save under another filename, or remove the existing card first.`,
          { filepath: absolute, filename },
        );
      }
      backupRel = await freeBackupName(rel, files);
      await files.writeText(backupRel, old);
      expectedHash = contentHash(old);
    }
    // Inside the vault a card is a note's exact text: the write path every exact-text write takes.
    const note = await changedOnDisk(filename, () =>
      deps.external
        ? files.writeText(rel, formattedCard, { expectedHash: expectedHash ?? '' }).then(() => undefined)
        : deps.notes.writeText(rel, formattedCard, expectedHash),
    );
    const backupPath = backupRel ? files.resolve(backupRel) : undefined;
    return {
      status: 'saved',
      ...base,
      created: !existing,
      backup_created: backupRel !== undefined,
      ...(backupPath ? { backup_path: backupPath } : {}),
      note_id: note?.id ?? null,
      // This backend's layout does not read a note there (flint: notes live in type folders).
      ...(note || deps.external
        ? {}
        : {
            warnings: [
              `The card was written to ${rel}, where this vault's storage (${deps.backendName}) does not read notes, so it is not indexed or searchable. Set card-workflow's output_directory to a folder it reads (for flint, a note-type folder such as "cards").`,
            ],
          }),
      message:
        `✅ Card saved successfully!\n\nLocation: ${absolute}` +
        (backupPath ? `\nThe previous version was kept as ${backupPath}.` : '') +
        '\n\nYou can view or edit this card anytime.',
    };
  };
}

/** A compare-and-swap that lost (the card changed, or appeared, since it was read) told as a card's conflict. */
async function changedOnDisk<T>(filename: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (err instanceof ContentHashMismatchError || err instanceof ConflictError) {
      throw new ConflictError(`Card "${filename}" changed on disk while it was being saved; call save_card again.`, {
        filename,
      });
    }
    throw err;
  }
}

async function freeBackupName(rel: string, files: VaultFiles): Promise<string> {
  for (let n = 1; n < 1000; n++) {
    const candidate = n === 1 ? `${rel}.backup` : `${rel}.backup.${n}`;
    if (!(await lstat(files.resolve(candidate)))) return candidate;
  }
  throw new ConflictError(`Too many backups of "${rel}"; remove old .backup files first.`, { path: rel });
}

async function lstat(absolute: string): Promise<Stats | undefined> {
  try {
    return await fs.lstat(absolute);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}
