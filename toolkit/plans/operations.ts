/**
 * Journalled multi-note operations (decision 025). `NoteService.applyPlan` prepares every step
 * (hooks run, the notes read), writes the plan to the store's journal, applies it, and closes the
 * entry; `recoverJournal` finishes or undoes what a dead process left open. Steps keep the
 * one-by-one semantics callers rely on: each note is its own compare-and-swap and may fail alone.
 */
import { randomBytes } from 'node:crypto';
import type { JournalEntry, JournalStep, NoteState, StepResult } from './journal.js';
import type { Metadata, Note } from '../../kernel/note.js';
import { contentHash } from '../hash.js';

export function newEntryId(now = new Date()): string {
  // Sorts by time as text: the journal lists newest first by name alone.
  return `${now.toISOString().replace(/[-:.]/g, '')}-${randomBytes(4).toString('hex')}`;
}

export function stateOf(note: Note): NoteState {
  return {
    hash: note.contentHash,
    title: note.title,
    content: note.content,
    metadata: note.metadata,
    tags: note.tags,
    ...(note.type !== undefined ? { type: note.type } : {}),
    ...(note.path !== undefined ? { path: note.path } : {}),
  };
}

export type StepCondition = 'before' | 'after' | 'changed';

/**
 * Where one step's note stands now. `after` is recognised by the recorded hash, else by the
 * title and content the step was to write (a store may stamp other fields, such as `updated`).
 */
export function conditionOf(
  step: JournalStep,
  result: StepResult | undefined,
  current: Note | undefined,
  moved?: Note,
): StepCondition {
  if (step.kind === 'move') return moveCondition(step, result, current, moved);
  if (step.kind === 'text') throw new Error('a text step is judged by its file (textCondition)');
  if (step.kind === 'create') {
    if (!current) return 'before';
    return result?.hash === current.contentHash ||
      (current.title === step.input.title && current.content === step.input.content)
      ? 'after'
      : 'changed';
  }
  if (step.kind === 'delete') {
    if (!current) return 'after';
    return current.contentHash === step.before.hash ? 'before' : 'changed';
  }
  if (!current) return 'changed';
  if (current.contentHash === step.before.hash) return 'before';
  if (result?.hash !== undefined && result.hash === current.contentHash) return 'after';
  const { title, content } = step.change;
  return (title === undefined || current.title === title) && (content === undefined || current.content === content)
    ? 'after'
    : 'changed';
}

/**
 * A move writes the note under its new id, then removes the old file: both present, the new
 * one with the note's title and text, is a move cut short — still `before` (rolling forward
 * removes the old file; rolling back the new one, see `halfMoved`).
 */
function moveCondition(
  step: Extract<JournalStep, { kind: 'move' }>,
  result: StepResult | undefined,
  current: Note | undefined,
  moved: Note | undefined,
): StepCondition {
  const movedIsIt =
    moved !== undefined &&
    (result?.hash === moved.contentHash ||
      (moved.title === step.before.title && moved.content === step.before.content));
  if (current)
    return current.contentHash === step.before.hash && (moved === undefined || movedIsIt) ? 'before' : 'changed';
  return movedIsIt ? 'after' : 'changed';
}

/** Where a text step's file stands: its hash now (null: no file) against the planned before and after. */
export function textCondition(step: Extract<JournalStep, { kind: 'text' }>, hashNow: string | null): StepCondition {
  if (hashNow === (step.before?.hash ?? null)) return 'before';
  if (hashNow === textHash(step.text)) return 'after';
  return 'changed';
}

export function textHash(text: string | null): string | null {
  return text === null ? null : contentHash(text);
}

/** A move cut short between writing the new file and removing the old one. */
export function halfMoved(step: JournalStep, current: Note | undefined, moved: Note | undefined): boolean {
  return step.kind === 'move' && current !== undefined && moved !== undefined;
}

/** The notes an entry names, for listings and logs. */
export function entryNotes(entry: JournalEntry): string[] {
  return entry.steps.map((step, k) => {
    if (step.kind === 'create') return entry.results?.[k]?.id ?? `(new) ${step.input.title}`;
    if (step.kind === 'move') return `${step.id} → ${step.to}`;
    return step.kind === 'text' ? step.path : step.id;
  });
}

/** The update time a kept state recorded (where the store writes one into the note), to write it back unchanged. */
export function recordedUpdate(metadata: Metadata): { updated?: string } {
  return typeof metadata.updated === 'string' ? { updated: metadata.updated } : {};
}
