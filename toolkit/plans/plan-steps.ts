/**
 * Applies a plan's prepared steps: creates first (a plan may link to them), then updates in store
 * batches, then exact texts, then moves, then deletes. Each step is its own compare-and-swap and
 * fails alone; `record` hears each outcome as soon as it is known.
 */
import type { JournalStep } from './journal.js';
import type { Note } from '../../kernel/note.js';
import { updateEach, type NoteService } from '../../kernel/notes.js';
import { applyText, writeRecorded, type TextStep } from './recorded.js';
import { settle } from '../../kernel/util/settle.js';

export interface Prepared {
  step: JournalStep;
  previous?: Note;
  titleChanged?: boolean;
  warnings?: string[];
}

type Record = (k: number, outcome: PromiseSettledResult<Note>) => void;

/** Creates run a few at once (their fsyncs share the filesystem journal's commits). */
const CREATE_CONCURRENCY = 64;
/** Notes per store `updateMany`: bounds how many note locks one operation holds at once. */
const UPDATE_BATCH = 256;

export async function applySteps(notes: NoteService, ready: ReadonlyArray<Prepared>, record: Record): Promise<void> {
  const indexed = ready.map((r, k) => ({ ...r, k }));
  const of = <K extends JournalStep['kind']>(kind: K) =>
    indexed.filter((r) => r.step.kind === kind) as Array<
      (typeof indexed)[number] & { step: Extract<JournalStep, { kind: K }> }
    >;
  const creates = of('create');
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < creates.length; i = next++) {
      const { step, k } = creates[i] as (typeof creates)[number];
      const outcome = await settle(notes.store.create(step.input));
      record(
        k,
        outcome.status === 'fulfilled'
          ? await settle(notes.announceCreate(outcome.value).then(() => outcome.value))
          : outcome,
      );
    }
  };
  await Promise.all(Array.from({ length: Math.min(CREATE_CONCURRENCY, creates.length) }, worker));
  const updates = of('update');
  for (let i = 0; i < updates.length; i += UPDATE_BATCH) {
    const batch = updates.slice(i, i + UPDATE_BATCH);
    const stored = await updateEach(
      notes.store,
      batch.map((r) => ({ id: r.step.id, change: r.step.change, expectedHash: r.step.before.hash })),
    );
    await Promise.all(
      batch.map(async (r, j) => {
        const outcome = stored[j] as PromiseSettledResult<Note>;
        record(
          r.k,
          outcome.status === 'rejected'
            ? outcome
            : await settle(
                notes
                  .announceUpdate(outcome.value, r.previous as Note, r.titleChanged === true)
                  .then(() => outcome.value),
              ),
        );
      }),
    );
  }
  // Exact texts: new files first (a move's copy), then rewrites, then removals (a move's source).
  const phase = (t: TextStep) => (t.before === null ? 0 : t.text === null ? 2 : 1);
  for (const r of of('text').sort((a, b) => phase(a.step) - phase(b.step)))
    record(r.k, await settle(applyText(notes, r.step)));
  for (const r of of('move')) {
    const { step } = r;
    const moved = notes.move(step.id, step.type, step.before.hash);
    const { change } = step;
    record(
      r.k,
      await settle(change ? moved.then((note) => writeRecorded(notes, note.id, change, note.contentHash)) : moved),
    );
  }
  for (const r of of('delete')) record(r.k, await settle(notes.delete(r.step.id, r.step.before.hash)));
}
