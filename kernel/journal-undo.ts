/**
 * Undo of a journalled operation (decision 025): every note it changed gets back the state the
 * journal kept (title, text, metadata, tags); notes it created are deleted, notes it deleted are
 * created again. Refused, naming the notes, when any of them changed since the operation (its
 * hash is no longer the one the operation left) — unless forced: then that note keeps its
 * current text and the state from before the operation becomes a new note beside it (a conflict
 * copy), so nobody's later work is lost.
 */
import { ConflictError, NotFoundError, ValidationError } from './errors.js';
import type { JournalEntry, JournalStep, JournalStorage, StepResult } from './journal.js';
import type { Note } from './note.js';
import type { NoteService } from './notes.js';
import { entryNotes, recordedUpdate } from './operations.js';

export interface OperationSummary {
  id: string;
  operation: string;
  at: string;
  state: JournalEntry['state'];
  notes: string[];
  undoable: boolean;
}

export function summarise(entry: JournalEntry): OperationSummary {
  return { id: entry.id, operation: entry.operation, at: entry.at, state: entry.state, notes: entryNotes(entry), undoable: isUndoable(entry) };
}

function isUndoable(entry: JournalEntry): boolean {
  return entry.state === 'done' || entry.state === 'rolled-forward';
}

export interface UndoReport {
  operation_id: string;
  restored: string[];
  deleted: string[];
  recreated: string[];
  conflict_copies: Array<{ id: string; copy: string }>;
}

interface Touched {
  step: JournalStep;
  result: StepResult;
  current: Note | undefined;
}

export async function undoOperation(journal: JournalStorage, notes: NoteService, entryId: string, force: boolean): Promise<UndoReport> {
  const entry = (await journal.list()).find((e) => e.id === entryId);
  if (!entry) throw new NotFoundError(`No operation ${entryId} in the journal (it keeps the most recent ones): list_operations shows them.`, { field: 'operation_id', operation_id: entryId });
  if (!isUndoable(entry)) throw new ValidationError(`Operation ${entryId} (${entry.operation}) is ${entry.state}: only a completed operation can be undone.`, { field: 'operation_id', state: entry.state });
  const touched: Touched[] = [];
  for (const [k, step] of entry.steps.entries()) {
    const result = entry.results?.[k];
    if (!result || result.error !== undefined || result.id === undefined) continue; // the step did not happen
    touched.push({ step, result, current: await notes.get(result.id) });
  }
  const changed = touched.filter((t) => (t.step.kind === 'delete' ? t.current !== undefined : t.current?.contentHash !== t.result.hash));
  if (changed.length && !force) {
    const names = changed.map((t) => t.result.id as string);
    throw new ConflictError(
      `Cannot undo ${entry.operation} ${entryId}: ${names.length === 1 ? 'note' : 'notes'} ${names.join(', ')} changed since. Pass force: true to undo anyway (each changed note keeps its current text; its state from before the operation becomes a conflict copy).`,
      { operation_id: entryId, changed: names },
    );
  }
  const report: UndoReport = { operation_id: entryId, restored: [], deleted: [], recreated: [], conflict_copies: [] };
  for (const t of touched) {
    const id = t.result.id as string;
    if (changed.includes(t)) {
      if (t.step.kind === 'create') continue; // a created note someone worked on since stays
      const before = t.step.before;
      const copy = await notes.createRecorded({ title: `${before.title} (conflict copy ${entryId})`, content: before.content, metadata: before.metadata, tags: before.tags, ...(before.type !== undefined ? { type: before.type } : {}) });
      report.conflict_copies.push({ id, copy: copy.id });
    } else if (t.step.kind === 'update' && t.current) {
      const { title, content, metadata, tags } = t.step.before;
      await notes.writeRecorded(id, { title, content, metadata, tags, ...recordedUpdate(metadata) }, t.current.contentHash);
      report.restored.push(id);
    } else if (t.step.kind === 'create' && t.current) {
      await notes.delete(id, t.current.contentHash);
      report.deleted.push(id);
    } else if (t.step.kind === 'delete') {
      const { title, content, metadata, tags, type } = t.step.before;
      report.recreated.push((await notes.createRecorded({ title, content, metadata, tags, ...(type !== undefined ? { type } : {}) })).id);
    }
  }
  await journal.finish({ ...entry, state: 'undone' });
  return report;
}
