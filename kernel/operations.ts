/**
 * Journalled multi-note operations (decision 025). `NoteService.applyPlan` prepares every step
 * (hooks run, the notes read), writes the plan to the store's journal, applies it, and closes the
 * entry; `recoverJournal` finishes or undoes what a dead process left open. Steps keep the
 * one-by-one semantics callers rely on: each note is its own compare-and-swap and may fail alone.
 */
import { randomBytes } from 'node:crypto';
import type { JournalEntry, JournalStep, NoteState, StepResult } from './journal.js';
import type { Metadata, Note } from './note.js';

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
export function conditionOf(step: JournalStep, result: StepResult | undefined, current: Note | undefined): StepCondition {
  if (step.kind === 'create') {
    if (!current) return 'before';
    return result?.hash === current.contentHash || (current.title === step.input.title && current.content === step.input.content) ? 'after' : 'changed';
  }
  if (step.kind === 'delete') {
    if (!current) return 'after';
    return current.contentHash === step.before.hash ? 'before' : 'changed';
  }
  if (!current) return 'changed';
  if (current.contentHash === step.before.hash) return 'before';
  if (result?.hash !== undefined && result.hash === current.contentHash) return 'after';
  const { title, content } = step.change;
  return (title === undefined || current.title === title) && (content === undefined || current.content === content) ? 'after' : 'changed';
}

/** The notes an entry names, for listings and logs. */
export function entryNotes(entry: JournalEntry): string[] {
  return entry.steps.map((step, k) => (step.kind === 'create' ? (entry.results?.[k]?.id ?? `(new) ${step.input.title}`) : step.id));
}

/** The update time a kept state recorded (where the store writes one into the note), to write it back unchanged. */
export function recordedUpdate(metadata: Metadata): { updated?: string } {
  return typeof metadata.updated === 'string' ? { updated: metadata.updated } : {};
}
