/**
 * Multi-note operations, journalled where the store keeps a journal (decision 025): every step
 * is prepared first (hooks run, notes read), the whole plan is written durably, then the steps
 * are applied — each its own compare-and-swap, failing alone — and the entry is closed. A
 * process killed in between leaves the entry open for `recoverJournal` at the next start.
 * Results come in input order. A single write does not need any of this: NoteService does it.
 */
import { callCaller } from '../../kernel/caller.js';
import { callProgress } from '../../kernel/progress.js';
import {
  ConflictError,
  ContentHashMismatchError,
  NotFoundError,
  ValidationError,
  toNotekernelError,
} from '../../kernel/errors.js';
import { operationJournal, type JournalEntry, type JournalStep, type ReplacedBy } from './journal.js';
import type { NewNote, Note, NoteChange } from '../../kernel/note.js';
import type { NoteService } from '../../kernel/notes.js';
import { keepFileTexts } from './journal-bytes.js';
import { newEntryId, stateOf } from './operations.js';
import { describeStep, type PlannedNote, type PlanPreview } from './plan-preview.js';
import { applySteps, type Prepared } from './plan-steps.js';
import { readText } from './recorded.js';

/** One step of a plan: an update, a create, a delete, a move, or a file's exact text. */
export type PlanItem =
  /** `previous`: the note as the caller just read it, which saves reading it again (used only at `expectedHash`). */
  | { kind: 'update'; id: string; change: NoteChange; expectedHash: string; previous?: Note }
  | { kind: 'create'; input: NewNote }
  | { kind: 'delete'; id: string; expectedHash?: string }
  /** To another type; `to` is the id the store gives it there (the journal finds it by it after a crash). */
  | { kind: 'move'; id: string; type: string; to: string; expectedHash: string }
  /** A note file's exact new text (`null`: removed), if it is still at `expectedHash` (`null`: no file yet). */
  | {
      kind: 'text';
      path: string;
      text: string | null;
      expectedHash: string | null;
      file?: true;
      replacedBy?: ReplacedBy;
    };

export interface AppliedPlan {
  /** The journal entry, where the store keeps a journal (undo names it). */
  entryId?: string;
  results: Array<PromiseSettledResult<Note>>;
  /** Per item, in input order: what the write hooks said of it (fields no schema defines, ...). */
  warnings: string[][];
}

export type { PlannedNote, PlanPreview };

export async function applyPlan(
  notes: NoteService,
  operation: string,
  items: readonly PlanItem[],
): Promise<AppliedPlan> {
  const prepared = await Promise.allSettled(items.map((item) => prepareStep(notes, item)));
  const ready = prepared.flatMap((p, index) => (p.status === 'fulfilled' ? [{ index, ...p.value }] : []));
  const { entryId, outcomes } = await runPlan(notes, operation, ready);
  const byIndex = new Map(ready.map((r, k) => [r.index, outcomes[k] as PromiseSettledResult<Note>]));
  return {
    ...(entryId ? { entryId } : {}),
    results: prepared.map((p, index) =>
      p.status === 'rejected' ? p : (byIndex.get(index) as PromiseSettledResult<Note>),
    ),
    warnings: prepared.map((p) => (p.status === 'fulfilled' ? (p.value.warnings ?? []) : [])),
  };
}

/**
 * Steps recorded already (an undo puts notes back into states the journal kept): journalled and
 * applied as `applyPlan` applies its own, with no hooks run again. `undoes` names the entry undone.
 */
export async function applyRecorded(
  notes: NoteService,
  operation: string,
  steps: ReadonlyArray<Prepared>,
  undoes?: string,
): Promise<AppliedPlan> {
  const { entryId, outcomes } = await runPlan(notes, operation, steps, undoes);
  return { ...(entryId ? { entryId } : {}), results: outcomes, warnings: outcomes.map(() => []) };
}

/**
 * What `applyPlan` would do with the same items, writing nothing: every note it would change,
 * with a unified diff of its text, and the items it would refuse already, each with its reason.
 */
export async function previewPlan(
  notes: NoteService,
  operation: string,
  items: readonly PlanItem[],
): Promise<PlanPreview> {
  const prepared = await Promise.allSettled(items.map((item) => prepareStep(notes, item)));
  const planned: PlannedNote[] = [];
  const refused: PlanPreview['refused'] = [];
  prepared.forEach((p, index) => {
    if (p.status === 'rejected')
      refused.push({ index, code: toNotekernelError(p.reason).code, error: toNotekernelError(p.reason).message });
    else planned.push(describeStep(p.value.step, index));
  });
  return { dry_run: true, operation, notes: planned, refused };
}

/** Plan durably, apply, close (decision 025). */
async function runPlan(
  notes: NoteService,
  operation: string,
  ready: ReadonlyArray<Prepared>,
  undoes?: string,
): Promise<{ entryId?: string; outcomes: Array<PromiseSettledResult<Note>> }> {
  const journal = ready.length ? operationJournal(notes.store) : undefined;
  // Each changed note's exact bytes go in the journal too, so an undo can put them back as they were.
  const steps = journal
    ? await keepFileTexts(
        ready.map((r) => r.step),
        notes.store.files,
      )
    : ready.map((r) => r.step);
  const entry: JournalEntry = {
    id: newEntryId(),
    operation,
    by: callCaller(),
    ...(undoes ? { undoes } : {}),
    at: new Date().toISOString(),
    state: 'pending',
    steps,
    results: [],
  };
  if (journal) await journal.begin(entry);
  const outcomes: Array<PromiseSettledResult<Note>> = new Array(ready.length);
  // The calling tool starts the progress with its item count (callProgress, kernel/progress.ts).
  const progress = callProgress();
  await applySteps(notes, ready, (k, outcome) => {
    outcomes[k] = outcome;
    progress.tick();
    const result =
      outcome.status === 'fulfilled'
        ? { id: outcome.value.id, hash: outcome.value.contentHash }
        : { error: toNotekernelError(outcome.reason).message };
    (entry.results as unknown[])[k] = result;
    journal?.progress(entry.id, k, result);
  });
  if (journal) await journal.finish({ ...entry, state: 'done' });
  return { ...(journal ? { entryId: entry.id } : {}), outcomes };
}

async function prepareStep(notes: NoteService, item: PlanItem): Promise<Prepared> {
  if (item.kind === 'update') {
    const previous = item.previous?.contentHash === item.expectedHash ? item.previous : await notes.require(item.id);
    // A stale hash is refused before the plan: the plan's before state is the caller's.
    if (previous.contentHash !== item.expectedHash)
      throw new ContentHashMismatchError(previous.contentHash, item.expectedHash, { identifier: item.id });
    const drafted = await notes.draftUpdate(previous, item.change);
    return {
      step: { kind: 'update', id: item.id, before: stateOf(previous), change: drafted.change },
      previous,
      titleChanged: drafted.titleChanged,
      warnings: drafted.warnings,
    };
  }
  if (item.kind === 'text') return prepareText(notes, item);
  if (item.kind === 'move' || item.kind === 'delete') {
    const previous = await notes.require(item.id);
    if (item.expectedHash !== undefined && previous.contentHash !== item.expectedHash)
      throw new ContentHashMismatchError(previous.contentHash, item.expectedHash, { identifier: item.id });
    if (item.kind === 'delete') return { step: { kind: 'delete', id: previous.id, before: stateOf(previous) } };
    return { step: { kind: 'move', id: previous.id, before: stateOf(previous), type: item.type, to: item.to } };
  }
  const drafted = await notes.draftCreate(item.input);
  return { step: { kind: 'create', input: drafted.input }, warnings: drafted.warnings };
}

async function prepareText(notes: NoteService, item: Extract<PlanItem, { kind: 'text' }>): Promise<Prepared> {
  const before = await readText(notes, item.path);
  if ((before?.hash ?? null) !== item.expectedHash) {
    if (item.expectedHash === null)
      throw new ConflictError(`${item.path} already exists; nothing was overwritten.`, { path: item.path });
    if (!before) throw new NotFoundError(`No note at ${item.path}.`, { path: item.path });
    throw new ContentHashMismatchError(before.hash, item.expectedHash, { identifier: item.path });
  }
  if (!item.file && item.text !== null && notes.store.readsNoteAt?.(item.path) === false)
    throw new ValidationError(`${item.path} is not where this vault keeps a note.`, { path: item.path });
  const step: JournalStep = {
    kind: 'text',
    path: item.path,
    before: before ?? null,
    text: item.text,
    ...(item.file ? { file: true as const } : {}),
    ...(item.replacedBy ? { replacedBy: item.replacedBy } : {}),
  };
  return { step };
}
