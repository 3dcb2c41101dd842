/**
 * Byte-for-byte undo (decision 025; issue 31). Where the store keeps notes in files (`files`),
 * the journal keeps the exact text of each note an update or a delete is about to change, beside
 * its parsed state; an undo then writes those bytes back as a text step instead of asking the
 * store to serialise the state again (which would add the `updated:` and `tags:` keys a user's
 * own file never had). Only text whose hash is the step's before hash is kept: a file that
 * changed since the plan was made is left to the state (its write fails on the hash anyway).
 */
import path from 'node:path';
import type { VaultFiles } from '../../kernel/backend.js';
import type { FileText, JournalStep, NoteState } from './journal.js';
import type { Note } from '../../kernel/note.js';
import { contentHash } from '../hash.js';

const READ_SLICE = 64;

/** What the restores read through: the store's files. */
interface ExactReads {
  readonly store: { readonly files?: VaultFiles | undefined };
}

async function fileText(files: VaultFiles, rel: string): Promise<FileText | undefined> {
  const text = await files.readText(rel);
  return text === undefined ? undefined : { text, hash: contentHash(text) };
}

/** The note's file relative to the vault (posix), when the store keeps it inside `files`' root. */
export function fileOf(files: Pick<VaultFiles, 'root'>, state: Pick<NoteState, 'path'>): string | undefined {
  if (state.path === undefined) return undefined;
  const rel = path.isAbsolute(state.path) ? path.relative(files.root, state.path) : state.path;
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return undefined;
  return rel.split(path.sep).join('/');
}

/** The steps with each update's and delete's before state carrying its file's exact text. */
export async function keepFileTexts(
  steps: readonly JournalStep[],
  files: VaultFiles | undefined,
): Promise<JournalStep[]> {
  if (!files) return [...steps];
  const kept = [...steps];
  for (let i = 0; i < kept.length; i += READ_SLICE) {
    await Promise.all(
      kept.slice(i, i + READ_SLICE).map(async (step, k) => {
        if (step.kind !== 'update' && step.kind !== 'delete') return;
        const rel = fileOf(files, step.before);
        const text = rel === undefined ? undefined : await files.readText(rel).catch(() => undefined);
        if (text !== undefined && contentHash(text) === step.before.hash)
          kept[i + k] = { ...step, before: { ...step.before, text } };
      }),
    );
  }
  return kept;
}

/**
 * An update undone as its old bytes: a text step writing `before.text` over the file as it is
 * now, when the note is still the same file. Undefined (the state is written back instead) when
 * no text was kept, the store has no `files`, or the note's file moved.
 */
export async function exactRestore(
  notes: ExactReads,
  before: NoteState,
  current: Note,
): Promise<Extract<JournalStep, { kind: 'text' }> | undefined> {
  const files = notes.store.files;
  if (before.text === undefined || !files) return undefined;
  const rel = fileOf(files, current);
  if (rel === undefined || rel !== fileOf(files, before)) return undefined;
  const now = await fileText(files, rel);
  if (!now || now.hash !== current.contentHash) return undefined;
  return { kind: 'text', path: rel, before: now, text: before.text };
}

/** A deleted note made again as its old bytes, at its old path, when that path is free. */
export async function exactRecreation(
  notes: ExactReads,
  before: NoteState,
): Promise<Extract<JournalStep, { kind: 'text' }> | undefined> {
  const files = notes.store.files;
  if (before.text === undefined || !files) return undefined;
  const rel = fileOf(files, before);
  if (rel === undefined || (await files.readText(rel)) !== undefined) return undefined;
  return { kind: 'text', path: rel, before: null, text: before.text };
}
