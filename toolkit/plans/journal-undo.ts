/**
 * Undo of a journalled operation (decision 025): every note it changed gets back the state the
 * journal kept (title, text, metadata, tags); notes it created are deleted, notes it deleted are
 * created again. Refused, naming the notes, when any of them changed since the operation (its
 * hash is no longer the one the operation left) — unless forced: then that note keeps its
 * current text and the state from before the operation becomes a new note beside it (a conflict
 * copy), so nobody's later work is lost.
 */
import { ConflictError, NotFoundError, ValidationError, toNotekernelError } from '../../kernel/errors.js';
import type { FileText, JournalEntry, JournalStep, NoteState, OperationJournal, StepResult } from './journal.js';
import type { NewNote, Note, NoteChange } from '../../kernel/note.js';
import type { NoteService } from '../../kernel/notes.js';
import { entryNotes, recordedUpdate, stateOf, textHash } from './operations.js';
import { exactRecreation, exactRestore } from './journal-bytes.js';
import { applyRecorded } from './plan-runner.js';
import { readText } from './recorded.js';

export interface OperationSummary {
  id: string;
  operation: string;
  by?: string;
  at: string;
  state: JournalEntry['state'];
  notes: string[];
  undoable: boolean;
  undoes?: string;
}

export function summarise(entry: JournalEntry): OperationSummary {
  return {
    id: entry.id,
    operation: entry.operation,
    ...(entry.by !== undefined ? { by: entry.by } : {}),
    at: entry.at,
    state: entry.state,
    notes: entryNotes(entry),
    undoable: isUndoable(entry),
    ...(entry.undoes !== undefined ? { undoes: entry.undoes } : {}),
  };
}

function isUndoable(entry: JournalEntry): boolean {
  return entry.state === 'done' || entry.state === 'rolled-forward';
}

export interface UndoReport {
  operation_id: string;
  /** The undo's own journal entry: it is listed, and can itself be undone. */
  undo_operation_id?: string;
  restored: string[];
  deleted: string[];
  recreated: string[];
  moved_back: string[];
  conflict_copies: Array<{ id: string; copy: string }>;
  failed?: Array<{ id: string; error: string }>;
}

interface Touched {
  step: JournalStep;
  result: StepResult;
  current: Note | undefined;
  /** A text step's file now (null: none). */
  file?: FileText | null;
}

type Outcome = keyof Pick<UndoReport, 'restored' | 'deleted' | 'recreated' | 'moved_back'> | 'conflict_copy';

/**
 * The undo is itself a journalled operation (`undo_operation`, naming the entry it undoes): a
 * crash mid-way is finished or rolled back at the next start like any other, and undoing the
 * undo puts the operation's changes back (its entry is then `done` again).
 */
export async function undoOperation(
  journal: OperationJournal,
  notes: NoteService,
  entryId: string,
  force: boolean,
): Promise<UndoReport> {
  const entries = await listOperations(journal);
  const entry = entries.find((e) => e.id === entryId);
  if (!entry)
    throw new NotFoundError(
      `No operation ${entryId} in the journal (it keeps the most recent ones): list_operations shows them.`,
      { field: 'operation_id', operation_id: entryId },
    );
  if (!isUndoable(entry))
    throw new ValidationError(
      `Operation ${entryId} (${entry.operation}) is ${entry.state}: only a completed operation can be undone.`,
      { field: 'operation_id', state: entry.state },
    );
  const touched: Touched[] = [];
  for (const [k, step] of entry.steps.entries()) {
    const result = entry.results?.[k];
    if (!result || result.error !== undefined || result.id === undefined) continue; // the step did not happen
    touched.push({
      step,
      result,
      current: await notes.get(result.id),
      ...(step.kind === 'text' ? { file: (await readText(notes, step.path)) ?? null } : {}),
    });
  }
  const changed = touched.filter((t) => {
    if (t.step.kind === 'text') return (t.file?.hash ?? null) !== textHash(t.step.text);
    return t.step.kind === 'delete' ? t.current !== undefined : t.current?.contentHash !== t.result.hash;
  });
  if (changed.length && !force) {
    const names = changed.map((t) => t.result.id as string);
    throw new ConflictError(
      `Cannot undo ${entry.operation} ${entryId}: ${names.length === 1 ? 'note' : 'notes'} ${names.join(', ')} changed since. Pass force: true to undo anyway (each changed note keeps its current text; its state from before the operation becomes a conflict copy).`,
      { operation_id: entryId, changed: names },
    );
  }
  const plan: Array<{ step: JournalStep; previous?: Note; titleChanged?: boolean; id: string; outcome: Outcome }> = [];
  for (const t of touched) {
    const id = t.result.id as string;
    const { step, current } = t;
    if (step.kind === 'text') {
      if (changed.includes(t)) {
        if (step.before === null) continue; // a file it made that someone worked on since stays
        plan.push({
          id,
          outcome: 'conflict_copy',
          step: {
            kind: 'text',
            path: conflictPath(step.path, entryId),
            before: null,
            text: step.before.text,
            ...fileFlag(step),
          },
        });
      } else {
        const outcome = step.before === null ? 'deleted' : step.text === null ? 'recreated' : 'restored';
        plan.push({
          id,
          outcome,
          step: {
            kind: 'text',
            path: step.path,
            before: t.file ?? null,
            text: step.before?.text ?? null,
            ...fileFlag(step),
          },
        });
      }
      continue;
    }
    if (changed.includes(t)) {
      if (step.kind === 'create') continue; // a created note someone worked on since stays
      const before = step.before;
      plan.push({
        id,
        outcome: 'conflict_copy',
        step: {
          kind: 'create',
          input: {
            ...recreation(before),
            title: `${before.title} (conflict copy ${entryId})`,
            slug: `${before.title} conflict copy ${entryId}`,
          },
        },
      });
    } else if (step.kind === 'update' && current) {
      // The old bytes where they were kept (a store with files): the note as it was, no key added.
      const exact = await exactRestore(notes, step.before, current);
      if (exact) plan.push({ id, outcome: 'restored', step: exact });
      else
        plan.push({
          id,
          outcome: 'restored',
          previous: current,
          titleChanged: current.title !== step.before.title,
          step: { kind: 'update', id, before: stateOf(current), change: keptChange(step.before) },
        });
    } else if (step.kind === 'move' && current) {
      plan.push({
        id,
        outcome: 'moved_back',
        step: {
          kind: 'move',
          id,
          before: stateOf(current),
          type: step.before.type ?? '',
          to: step.id,
          change: keptChange(step.before),
        },
      });
    } else if (step.kind === 'create' && current) {
      plan.push({ id, outcome: 'deleted', step: { kind: 'delete', id, before: stateOf(current) } });
    } else if (step.kind === 'delete') {
      const exact = await exactRecreation(notes, step.before);
      plan.push({ id, outcome: 'recreated', step: exact ?? { kind: 'create', input: recreation(step.before) } });
    }
  }
  const applied = await applyRecorded(notes, 'undo_operation', plan, entryId);
  const report: UndoReport = {
    operation_id: entryId,
    ...(applied.entryId ? { undo_operation_id: applied.entryId } : {}),
    restored: [],
    deleted: [],
    recreated: [],
    moved_back: [],
    conflict_copies: [],
  };
  const failed: NonNullable<UndoReport['failed']> = [];
  plan.forEach((p, k) => {
    const result = applied.results[k] as PromiseSettledResult<Note>;
    if (result.status === 'rejected') failed.push({ id: p.id, error: toNotekernelError(result.reason).message });
    else if (p.outcome === 'conflict_copy') report.conflict_copies.push({ id: p.id, copy: result.value.id });
    else report[p.outcome].push(p.outcome === 'recreated' || p.outcome === 'moved_back' ? result.value.id : p.id);
  });
  if (failed.length) report.failed = failed;
  await markUndone(journal, entry, entries);
  return report;
}

/**
 * Every kept entry, newest first, each in the state its undos give it: an undo that stands
 * (done, or finished at start-up) leaves the entry it undid `undone`; an undo undone in turn
 * leaves it `done`. Derived here rather than trusted from the entry's own file, so a crash
 * between closing an undo and marking what it undid changes nothing.
 */
export async function listOperations(journal: OperationJournal): Promise<JournalEntry[]> {
  const entries = await journal.list();
  const byId = new Map(entries.map((e) => [e.id, e]));
  // Newest first: an undo's own state is settled (by any later undo of it) before it settles its target's.
  for (const { id } of entries) {
    const undo = byId.get(id) as JournalEntry;
    const target = undo.undoes !== undefined ? byId.get(undo.undoes) : undefined;
    if (!target) continue;
    if (undo.state === 'done' || undo.state === 'rolled-forward') byId.set(target.id, { ...target, state: 'undone' });
    else if (undo.state === 'undone' && target.state === 'undone') byId.set(target.id, { ...target, state: 'done' });
  }
  return entries.map((e) => byId.get(e.id) as JournalEntry);
}

/** The entry is `undone`; when it was itself an undo, the entry it undid is `done` again (its changes are back). */
export async function markUndone(
  journal: OperationJournal,
  entry: JournalEntry,
  entries?: JournalEntry[],
): Promise<void> {
  await journal.finish({ ...entry, state: 'undone' });
  if (entry.undoes === undefined) return;
  const undone = (entries ?? (await journal.list())).find((e) => e.id === entry.undoes);
  if (undone?.state === 'undone') await journal.finish({ ...undone, state: 'done' });
}

/** A plain-file step (a migration's v1 entry) is undone as a plain file too. */
function fileFlag(step: Extract<JournalStep, { kind: 'text' }>): { file?: true } {
  return step.file ? { file: true } : {};
}

/** Beside the note, for a forced undo of an exact-text change: "Plan (conflict copy <entry>).md". */
function conflictPath(relPath: string, entryId: string): string {
  return relPath.replace(/(\.md)?$/i, ` (conflict copy ${entryId})$1`);
}

/** The kept state written back as it was, `updated` stamp included. */
function keptChange(before: NoteState): NoteChange {
  const { title, content, metadata, tags } = before;
  return { title, content, metadata, tags, ...recordedUpdate(metadata) };
}

/** A deleted note made again: its kept state, under its old filename where the store keeps one. */
function recreation(before: NoteState): NewNote {
  const { title, content, metadata, tags, type } = before;
  return {
    title,
    content,
    metadata,
    tags,
    ...(type !== undefined ? { type } : {}),
    ...(typeof metadata.filename === 'string' ? { slug: metadata.filename } : {}),
  };
}
