/**
 * Moving a note as Obsidian does: the file goes to its new path (folders made as needed, never
 * over an existing file), and when that changes its name, `[[old name]]`, `[[old name|alias]]`,
 * `[[old name#heading]]` and `![[old name]]` in the notes linking to it become the new name (a
 * link by path, `[[Old/Place/old name]]`, becomes the new path). The linking notes are the ones
 * the links index names; each is rewritten with a compare-and-swap on the text just read, so a note
 * edited meanwhile is reported, never clobbered.
 */
import { z } from 'zod';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { VaultFiles } from '../../kernel/backend.js';
import { ConflictError, NotFoundError, ValidationError, toNotekernelError } from '../../kernel/errors.js';
import type { NoteService } from '../../kernel/notes.js';
import { contentHash } from '../../kernel/util/hash.js';
import { readNoteText, writeNoteText } from '../../toolkit/files/note-text.js';
import { scanMarkdown } from '../../toolkit/markdown/index.js';
import { applyReplacements } from '../../toolkit/markdown/replace.js';
import { formatWikilink, linkSafe } from '../../toolkit/markdown/wikilink-format.js';
import type { LinkIndexService } from '../links/service.js';
import { folderPath, noteName, notePath } from './vault-paths.js';

export interface MoveOutcome {
  source: string;
  destination: string;
  links_updated: number;
  notes_updated: string[];
  not_rewritten: Array<{ path: string; reason: string }>;
}

export interface MoveDeps {
  notes: NoteService;
  files: VaultFiles;
  links: LinkIndexService;
}

const fold = (s: string): string => s.normalize('NFC').toLocaleLowerCase();

export async function moveNote(deps: MoveDeps, sourceInput: string, destinationInput: string): Promise<MoveOutcome> {
  const { notes, files, links } = deps;
  const from = notePath(files, sourceInput, 'source').rel;
  const to = (await intoFolder(files, destinationInput, from)) ?? notePath(files, destinationInput, 'destination').rel;
  if (from === to) throw new ValidationError(`source and destination are the same file (${from}).`, { field: 'destination' });
  const current = await readNoteText(files, from);
  if (!current) throw new NotFoundError(`No note at ${from}.`, { field: 'source', path: from });
  if (fold(from) !== fold(to) && (await files.exists(to))) throw new ConflictError(`${to} already exists; nothing was moved.`, { field: 'destination', path: to });
  if (!linkSafe(noteName(to))) throw new ValidationError(`destination "${noteName(to)}" holds a character a [[wikilink]] cannot (one of [ ] | # ^).`, { field: 'destination' });
  const linking = new Set((await links.incoming(from)).map((ref) => ref.source_note_id));
  if (fold(from) === fold(to)) {
    // Only the case of the name changes: on a case-insensitive file system the new name is the
    // old file, so it is written first under a temporary name.
    await writeNoteText(notes, files, `${from}.moving.md`, current.text, null);
    await notes.delete(from, current.hash);
    await writeNoteText(notes, files, to, current.text, null);
    await notes.delete(`${from}.moving.md`);
  } else {
    await writeNoteText(notes, files, to, current.text, null);
    try {
      await notes.delete(from, current.hash);
    } catch (err) {
      // The source changed (or went) while it was copied: undo the copy, keep the source as it is.
      await notes.delete(to, contentHash(current.text));
      throw err;
    }
  }
  const outcome: MoveOutcome = { source: from, destination: to, links_updated: 0, notes_updated: [], not_rewritten: [] };
  for (const source of [...linking].sort()) {
    const at = source === from ? to : source;
    try {
      const count = await rewriteLinks(notes, files, at, from, to);
      if (count > 0) {
        outcome.links_updated += count;
        outcome.notes_updated.push(at);
      }
    } catch (err) {
      outcome.not_rewritten.push({ path: at, reason: toNotekernelError(err).message });
    }
  }
  return outcome;
}

/** A destination that names a folder (`Archive/`, or an existing folder): the note keeps its file name there. */
async function intoFolder(files: VaultFiles, destination: string, from: string): Promise<string | undefined> {
  const trimmed = destination.trim();
  const folder = trimmed.endsWith('/') ? folderPath(files, trimmed, 'destination') : undefined;
  const target = folder ?? (/\.md$/i.test(trimmed) ? undefined : folderPath(files, trimmed, 'destination'));
  if (!target) return undefined;
  const isFolder = folder !== undefined || (await fs.stat(target.absolute).then((s) => s.isDirectory(), () => false));
  if (!isFolder) return undefined;
  const name = path.posix.basename(from);
  return target.rel === '' ? name : `${target.rel}/${name}`;
}

/** Rewrites the links in `at` that name `from` by name or by path; returns how many. */
async function rewriteLinks(notes: NoteService, files: VaultFiles, at: string, from: string, to: string): Promise<number> {
  const current = await readNoteText(files, at);
  if (!current) return 0;
  const oldName = fold(noteName(from));
  const oldPath = fold(from.replace(/\.md$/i, ''));
  const newName = noteName(to);
  const newPath = to.replace(/\.md$/i, '');
  const replacements: Array<{ start: number; end: number; text: string }> = [];
  for (const link of scanMarkdown(current.text, { tags: false }).links) {
    if (link.kind === 'markdown') continue;
    const target = fold(link.target.replace(/\.md$/i, ''));
    const next = target === oldPath && oldPath.includes('/') ? newPath : target === oldName ? newName : undefined;
    if (next === undefined || next === link.target) continue;
    replacements.push({ start: link.start, end: link.end, text: formatWikilink(link, next, link.alias) });
  }
  if (!replacements.length) return 0;
  await writeNoteText(notes, files, at, applyReplacements(current.text, replacements), current.hash);
  return replacements.length;
}

/** MoveOutcome as an output schema. */
export const moveOutcomeOutput = {
  source: z.string(),
  destination: z.string(),
  links_updated: z.number(),
  notes_updated: z.array(z.string()),
  not_rewritten: z.array(z.object({ path: z.string(), reason: z.string() })),
};
