/**
 * Writes of a state already decided: a plan's prepared steps, a journal's recovery, an undo. No
 * write hook runs again (the step was drafted once, or is a state the journal kept); the
 * listeners are told as for any tool's write.
 */
import path from 'node:path';
import type { FileText, JournalStep } from './journal.js';
import type { NewNote, Note, NoteChange } from '../../kernel/note.js';
import type { NoteService } from '../../kernel/notes.js';
import { ConflictError, ContentHashMismatchError, NotFoundError, ValidationError } from '../../kernel/errors.js';
import { contentHash } from '../hash.js';

export type TextStep = Extract<JournalStep, { kind: 'text' }>;

/** Writes exactly `change` and tells the listeners. */
export async function writeRecorded(
  notes: NoteService,
  id: string,
  change: NoteChange,
  expectedHash: string,
): Promise<Note> {
  let previous: Note | undefined;
  const note = await notes.store.update(
    id,
    (current) => {
      previous = current;
      return change;
    },
    expectedHash,
  );
  const before = previous as Note;
  await notes.announceUpdate(note, before, change.title !== undefined && change.title !== before.title);
  return note;
}

/** Creates exactly `input` and tells the listeners. */
export async function createRecorded(notes: NoteService, input: NewNote): Promise<Note> {
  const note = await notes.store.create(input);
  await notes.announceCreate(note);
  return note;
}

/**
 * Completes a move cut short between writing the note under its new id and removing the old
 * file: the old file goes, and the note under its new id is announced again — at start-up the
 * indexes may have seen both files, so the listeners hear a delete and a write, not a move.
 */
export async function finishMove(notes: NoteService, fromId: string, expectedHash: string, moved: Note): Promise<Note> {
  await notes.delete(fromId, expectedHash);
  await notes.applyExternal({ kind: 'written', note: moved, previous: moved }, 'tool');
  return moved;
}

/** A note file's exact text and hash, or undefined when there is no such file (a store with `files`). */
export async function readText(notes: NoteService, relPath: string): Promise<FileText | undefined> {
  const text = await notes.files('exact text').readText(relPath);
  return text === undefined ? undefined : { text, hash: contentHash(text) };
}

/** One text step as planned: the file written, or removed. */
export async function applyText(notes: NoteService, step: TextStep): Promise<Note> {
  if (step.file) return applyFileText(notes, step);
  if (step.text === null) return notes.delete(step.path, step.before?.hash);
  const note = await notes.writeText(step.path, step.text, step.before?.hash ?? null);
  if (!note)
    throw new ValidationError(`${step.path} was written but is not where this vault keeps a note.`, {
      path: step.path,
    });
  return note;
}

/**
 * A `file` text step: the vault file written or removed as planned, if it is still at its
 * planned before hash, through `files` alone. A note the store reads there is announced as
 * `writeText` does; a plain file (a v1 entry) is not a note: its answer carries the path as
 * id and the file's hash, which is what the journal records. The caller refreshes the store.
 */
async function applyFileText(notes: NoteService, step: TextStep): Promise<Note> {
  const files = notes.files('a file step');
  if (step.text !== null)
    return (await notes.writeText(step.path, step.text, step.before?.hash ?? null)) ?? fileAnswer(step.path, step.text);
  const now = await readText(notes, step.path);
  if (!now) throw new NotFoundError(`No file at ${step.path}.`, { path: step.path });
  if (step.before && now.hash !== step.before.hash)
    throw new ContentHashMismatchError(now.hash, step.before.hash, { identifier: step.path });
  if (step.replacedBy && (await readText(notes, step.replacedBy.path))?.hash !== step.replacedBy.hash) {
    throw new ConflictError(
      `${step.path} was kept: ${step.replacedBy.path}, which replaces it, is not in place as planned.`,
      { path: step.path, replaced_by: step.replacedBy.path },
    );
  }
  // Compared again under the file's write lock: a write landing since the check above is kept.
  await files.remove(step.path, step.before ? { expectedHash: step.before.hash } : {});
  return fileAnswer(step.path, '');
}

/** What a `file` step answers for a plain file: its path and hash (a removed file: the empty text's). */
function fileAnswer(relPath: string, text: string): Note {
  const now = new Date().toISOString();
  return {
    id: relPath,
    title: path.posix.basename(relPath).replace(/\.md$/i, ''),
    content: text,
    tags: [],
    metadata: {},
    created: now,
    updated: now,
    contentHash: contentHash(text),
  };
}
