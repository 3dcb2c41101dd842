/**
 * delete_note_type's notes, as one journalled operation (decision 025): 'migrate' moves every
 * note to the target type, 'delete' deletes them. Clashing filenames are found before anything
 * moves; a move failing midway has the operation undone (the earlier notes move back), so every
 * note moves or none does. A crash mid-way is finished or rolled back at the next start.
 */
import { ConflictError, toNotekernelError } from '../../../kernel/errors.js';
import { undoOperation } from '../../../toolkit/plans/journal-undo.js';
import { operationJournal } from '../../../toolkit/plans/journal.js';
import type { Note } from '../../../kernel/note.js';
import type { NoteService } from '../../../kernel/notes.js';
import { applyPlan, type AppliedPlan, type PlanItem } from '../../../toolkit/plans/plan-runner.js';

export function migrationItems(list: readonly Note[], target: string): PlanItem[] {
  return list.map((n) => ({
    kind: 'move',
    id: n.id,
    type: target,
    to: `${target}/${n.filename}`,
    expectedHash: n.contentHash,
  }));
}

export function deletionItems(list: readonly Note[]): PlanItem[] {
  return list.map((n) => ({ kind: 'delete', id: n.id, expectedHash: n.contentHash }));
}

export async function assertNoClashes(notes: NoteService, list: readonly Note[], target: string): Promise<void> {
  const clashes = (
    await Promise.all(
      list.map(async (n) => ((await notes.get(`${target}/${n.filename}`)) ? `${target}/${n.filename}` : undefined)),
    )
  ).filter((id): id is string => id !== undefined);
  if (clashes.length) {
    throw new ConflictError(
      `Cannot migrate to '${target}': it already has notes with the same filename: ${clashes.join(', ')}. Nothing was moved.`,
      {
        target_type: target,
        conflicts: clashes,
      },
    );
  }
}

/** Returns the journal entry. */
export async function migrateNotes(
  notes: NoteService,
  list: readonly Note[],
  target: string,
): Promise<string | undefined> {
  await assertNoClashes(notes, list, target);
  const applied = await applyPlan(notes, 'delete_note_type', migrationItems(list, target));
  const failedAt = applied.results.findIndex((r) => r.status === 'rejected');
  if (failedAt < 0) return applied.entryId;
  const failed = list[failedAt] as Note;
  const error = toNotekernelError((applied.results[failedAt] as PromiseRejectedResult).reason);
  const movedBack = await moveBack(notes, list, applied);
  throw new ConflictError(
    `Migrating ${failed.id} to '${target}' failed (${error.message}); ${movedBack.moved} note(s) already moved were moved back and the type was kept.`,
    {
      failed: failed.id,
      cause: error.toBody(),
      ...(movedBack.notRestored.length ? { not_restored: movedBack.notRestored } : {}),
    },
  );
}

async function moveBack(
  notes: NoteService,
  list: readonly Note[],
  applied: AppliedPlan,
): Promise<{ moved: number; notRestored: string[] }> {
  const moved = applied.results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const journal = operationJournal(notes.store);
  if (journal && applied.entryId) {
    const report = await undoOperation(journal, notes, applied.entryId, false).catch(() => undefined);
    if (report && !report.failed) return { moved: moved.length, notRestored: [] };
  }
  // No journal (or its undo failed): one by one.
  const notRestored: string[] = [];
  for (const done of moved) {
    if (!(await notes.get(done.id))) continue;
    const from = list.find((n) => n.filename === done.filename)?.type ?? '';
    await notes.move(done.id, from, done.contentHash).catch(() => notRestored.push(done.id));
  }
  return { moved: moved.length - notRestored.length, notRestored };
}
