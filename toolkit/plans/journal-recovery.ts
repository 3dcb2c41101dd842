/**
 * At open, finishes what a dead process left in the journal (decision 025). For each open entry,
 * every step's note is looked at: in its planned before state, its after state, or changed by
 * someone else. When no note was changed by someone else the entry is rolled forward (the steps
 * still "before" are applied); otherwise it is rolled back (the notes already "after" get their
 * before state again) and the notes that could be neither are named. The outcome is written into
 * the entry, logged, and shown by `notekernel doctor`.
 */
import type { JournalEntry, JournalRecovery, JournalStep, OperationJournal, StepResult } from './journal.js';
import type { Logger } from '../../kernel/logger.js';
import type { Note } from '../../kernel/note.js';
import type { NoteService } from '../../kernel/notes.js';
import { ConflictError, toNotekernelError } from '../../kernel/errors.js';
import { conditionOf, halfMoved, recordedUpdate, textCondition, textHash, type StepCondition } from './operations.js';
import { applyText, createRecorded, finishMove, readText, writeRecorded } from './recorded.js';

export interface RecoveryReport {
  entry: string;
  operation: string;
  outcome: JournalRecovery['outcome'];
  applied: number;
  problems: string[];
}

export async function recoverJournal(
  journal: OperationJournal,
  notes: NoteService,
  logger: Logger,
): Promise<RecoveryReport[]> {
  const reports: RecoveryReport[] = [];
  let plainFiles = false;
  for (const entry of await journal.unfinished()) {
    const report = await recoverEntry(entry, notes);
    plainFiles ||= entry.steps.some((step) => step.kind === 'text' && step.file === true);
    const recovery: JournalRecovery = {
      at: new Date().toISOString(),
      outcome: report.outcome,
      problems: report.problems,
      applied: report.applied,
    };
    await journal.finish({ ...entry, state: report.outcome, recovery });
    // An undo finished at start-up leaves the operation it undid undone, as a finished undo does.
    if (report.outcome === 'rolled-forward' && entry.undoes !== undefined) {
      const undone = (await journal.list()).find((e) => e.id === entry.undoes);
      if (undone) await journal.finish({ ...undone, state: 'undone' });
    }
    logger.warn(
      {
        entry: entry.id,
        operation: entry.operation,
        outcome: report.outcome,
        notes: entry.steps.length,
        applied: report.applied,
        problems: report.problems,
      },
      `journal: an operation interrupted by a crash was ${report.outcome === 'rolled-forward' ? 'finished' : 'rolled back'}`,
    );
    reports.push(report);
  }
  // Plain-file steps (a migration's v1 files) go through `files`, which no store follows: the
  // store reads the folder again, whether or not its opening scan ran before them.
  if (plainFiles) await notes.store.refresh?.();
  return reports;
}

interface Looked {
  step: JournalStep;
  result: StepResult | undefined;
  current: Note | undefined;
  /** For a move: the note at its new id. */
  moved: Note | undefined;
  condition: StepCondition;
}

async function recoverEntry(entry: JournalEntry, notes: NoteService): Promise<RecoveryReport> {
  const looked: Looked[] = [];
  for (const [k, step] of entry.steps.entries()) {
    const result = entry.results?.[k] ?? undefined;
    if (step.kind === 'text') {
      const now = await readText(notes, step.path);
      looked.push({
        step,
        result,
        current: undefined,
        moved: undefined,
        condition: textCondition(step, now?.hash ?? null),
      });
      continue;
    }
    const id = step.kind === 'create' ? result?.id : step.id;
    const current = id !== undefined ? await notes.get(id) : undefined;
    const moved = step.kind === 'move' ? await notes.get(step.to) : undefined;
    looked.push({ step, result, current, moved, condition: conditionOf(step, result, current, moved) });
  }
  const changed = looked.filter((l) => l.condition === 'changed');
  const problems = changed.map(
    (l) =>
      `${noteName(l)}: changed since the operation was planned (neither its before nor its after state); left as it is`,
  );
  let applied = 0;
  if (changed.length === 0) {
    for (const l of looked.filter((x) => x.condition === 'before')) {
      const failure = await rollForward(l, notes);
      if (failure) problems.push(`${noteName(l)}: ${failure}`);
      else applied++;
    }
    return { entry: entry.id, operation: entry.operation, outcome: 'rolled-forward', applied, problems };
  }
  for (const l of looked.filter(
    (x) => x.condition === 'after' || (x.condition === 'before' && halfMoved(x.step, x.current, x.moved)),
  )) {
    const failure = await rollBack(l, notes);
    if (failure) problems.push(`${noteName(l)}: ${failure}`);
    else applied++;
  }
  return { entry: entry.id, operation: entry.operation, outcome: 'rolled-back', applied, problems };
}

async function rollForward({ step, current, moved }: Looked, notes: NoteService): Promise<string | undefined> {
  try {
    if (step.kind === 'update') await writeRecorded(notes, step.id, step.change, step.before.hash);
    else if (step.kind === 'text') await applyText(notes, step);
    else if (step.kind === 'move' && moved && halfMoved(step, current, moved))
      await finishMove(notes, step.id, step.before.hash, moved);
    else if (step.kind === 'move') await notes.move(step.id, step.type, step.before.hash);
    else if (step.kind === 'delete') await notes.delete(step.id, step.before.hash);
    else await createOnce(step, notes);
    return undefined;
  } catch (err) {
    return toNotekernelError(err).message;
  }
}

/** A create whose outcome was not recorded may have happened: a note at the chosen id with the planned text is it. */
async function createOnce(step: Extract<JournalStep, { kind: 'create' }>, notes: NoteService): Promise<void> {
  try {
    await createRecorded(notes, step.input);
  } catch (err) {
    const id = err instanceof ConflictError ? err.details.id : undefined;
    const existing = typeof id === 'string' ? await notes.get(id) : undefined;
    if (existing && existing.title === step.input.title && existing.content === step.input.content) return;
    throw err;
  }
}

async function rollBack({ step, current, moved }: Looked, notes: NoteService): Promise<string | undefined> {
  try {
    if (step.kind === 'text') {
      await applyText(notes, {
        ...step,
        before: step.text === null ? null : { text: step.text, hash: textHash(step.text) as string },
        text: step.before?.text ?? null,
      });
    } else if (step.kind === 'move' && moved) {
      // Cut short: the old file is whole, the copy goes; done: the note moves back.
      if (current) await notes.delete(moved.id, moved.contentHash);
      else await moveBack(notes, step, moved);
    } else if (step.kind === 'update' && current) {
      const { title, content, metadata, tags } = step.before;
      await writeRecorded(
        notes,
        step.id,
        { title, content, metadata, tags, ...recordedUpdate(metadata) },
        current.contentHash,
      );
    } else if (step.kind === 'create' && current) {
      await notes.delete(current.id, current.contentHash);
    } else if (step.kind === 'delete') {
      const { title, content, metadata, tags, type } = step.before;
      await createRecorded(notes, { title, content, metadata, tags, ...(type !== undefined ? { type } : {}) });
    }
    return undefined;
  } catch (err) {
    return toNotekernelError(err).message;
  }
}

/** Back to its type, then its kept state (with its kept `updated`), so the file is as it was. */
export async function moveBack(
  notes: NoteService,
  step: Extract<JournalStep, { kind: 'move' }>,
  moved: Note,
): Promise<Note> {
  const back = await notes.move(moved.id, step.before.type ?? '', moved.contentHash);
  const { title, content, metadata, tags } = step.before;
  return writeRecorded(
    notes,
    back.id,
    { title, content, metadata, tags, ...recordedUpdate(metadata) },
    back.contentHash,
  );
}

function noteName(l: Looked): string {
  if (l.step.kind === 'text') return l.step.path;
  return l.step.kind === 'create' ? (l.result?.id ?? `new note "${l.step.input.title}"`) : l.step.id;
}
