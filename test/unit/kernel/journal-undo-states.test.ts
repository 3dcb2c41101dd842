/**
 * What list_operations and undo_operation take an entry's state to be: an undo that stands leaves
 * what it undid `undone`, an undo undone in turn leaves it `done` — even when the process died
 * between closing the undo and marking the entry it undid (the entry's own file still says `done`).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../../toolkit/plans/journal.js';
import { listOperations } from '../../../toolkit/plans/journal-undo.js';
import { newEntryId } from '../../../toolkit/plans/operations.js';
import { FileJournal } from '../../../toolkit/files/file-journal.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

async function journalWith(entries: JournalEntry[]): Promise<FileJournal<JournalEntry>> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nk-journal-states-'));
  dirs.push(dir);
  const journal = new FileJournal<JournalEntry>(dir, { keep: 100, maxAgeMs: 3_600_000 });
  for (const e of entries) {
    await journal.begin({ ...e, state: 'pending' });
    await journal.finish(e);
  }
  return journal;
}

const at = (k: number) => new Date(Date.now() - (10 - k) * 1_000);
const entry = (k: number, state: JournalEntry['state'], undoes?: string): JournalEntry => ({
  id: newEntryId(at(k)),
  operation: undoes ? 'undo_operation' : 'rename_note',
  ...(undoes ? { undoes } : {}),
  at: at(k).toISOString(),
  state,
  steps: [],
  results: [],
});

describe('operation states under undos', () => {
  it('an undo that stands leaves its operation undone, though the operation was never marked', async () => {
    const op = entry(1, 'done');
    const undo = entry(2, 'done', op.id);
    const states = new Map((await listOperations(await journalWith([op, undo]))).map((e) => [e.id, e.state]));
    expect(states.get(op.id)).toBe('undone');
    expect(states.get(undo.id)).toBe('done');
  });

  it('an undo finished at start-up counts as standing; one rolled back does not', async () => {
    const a = entry(1, 'done');
    const b = entry(2, 'done');
    const forward = entry(3, 'rolled-forward', a.id);
    const back = entry(4, 'rolled-back', b.id);
    const states = new Map(
      (await listOperations(await journalWith([a, b, forward, back]))).map((e) => [e.id, e.state]),
    );
    expect(states.get(a.id)).toBe('undone');
    expect(states.get(b.id)).toBe('done');
  });

  it('an undo undone in turn leaves the operation done again, even where its file still says undone', async () => {
    const op = entry(1, 'undone');
    const undo = entry(2, 'done', op.id);
    const redo = entry(3, 'done', undo.id);
    const states = new Map((await listOperations(await journalWith([op, undo, redo]))).map((e) => [e.id, e.state]));
    expect(states.get(undo.id)).toBe('undone');
    expect(states.get(op.id)).toBe('done');
    expect(states.get(redo.id)).toBe('done');
  });
});
