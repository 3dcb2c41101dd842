/**
 * Journal recovery at open (decision 025), on a real fs-sqlite vault: an entry left open by a
 * process that died is rolled forward when every note is in its planned before or after state,
 * and rolled back — the notes already changed put back, the one changed by someone else left
 * alone and named — when one is not.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { operationJournal, type JournalEntry } from '../../../toolkit/plans/journal.js';
import { newEntryId, stateOf } from '../../../toolkit/plans/operations.js';
import { createTestKernel, removeDir, type TestKernel } from '../../support/temp.js';

let roots: string[] = [];
afterEach(async () => {
  await Promise.all(roots.map(removeDir));
  roots = [];
});

/** Three notes and an open entry rewriting all three; `prepare` sets the scene before the "crash". */
async function interrupted(
  prepare: (t: TestKernel, ids: string[]) => Promise<void>,
): Promise<{ root: string; ids: string[]; entry: JournalEntry; original: string[] }> {
  const t = await createTestKernel();
  roots.push(t.root);
  const ids: string[] = [];
  for (const title of ['Alpha', 'Beta', 'Gamma'])
    ids.push((await t.vault.notes.create({ title, content: `${title} before\n`, type: 'general' })).note.id);
  const notes = await Promise.all(ids.map((id) => t.vault.notes.require(id)));
  const entry: JournalEntry = {
    id: newEntryId(),
    operation: 'test_operation',
    at: new Date().toISOString(),
    state: 'pending',
    steps: notes.map((n) => ({
      kind: 'update',
      id: n.id,
      before: stateOf(n),
      change: { content: `${n.title} after\n` },
    })),
    results: [],
  };
  await t.vault.notes.store.journal?.begin(entry);
  const original = ids.map((id) => fs.readFileSync(path.join(t.root, id), 'utf8'));
  await prepare(t, ids);
  await t.kernel.close();
  return { root: t.root, ids, entry, original };
}

async function reopen(root: string): Promise<TestKernel> {
  return createTestKernel({ root, init: false });
}

describe('journal recovery at open', () => {
  it('rolls forward when every note is before or after', async () => {
    const { root, ids, entry } = await interrupted(async (t, [alpha]) => {
      const note = await t.vault.notes.require(alpha as string);
      await t.vault.notes.update(note.id, { content: 'Alpha after\n' }, note.contentHash);
    });
    const t = await reopen(root);
    try {
      const contents = await Promise.all(ids.map(async (id) => (await t.vault.notes.require(id)).content));
      expect(contents).toEqual(['Alpha after\n', 'Beta after\n', 'Gamma after\n']);
      const kept = (await operationJournal(t.vault.notes.store)?.list())?.find((e) => e.id === entry.id);
      expect(kept?.state).toBe('rolled-forward');
      expect(kept?.recovery).toMatchObject({ outcome: 'rolled-forward', applied: 2, problems: [] });
    } finally {
      await t.close();
    }
  });

  it('rolls back when a note was changed by someone else, leaving that note and naming it', async () => {
    const { root, ids, entry, original } = await interrupted(async (t, [alpha, , gamma]) => {
      const note = await t.vault.notes.require(alpha as string);
      await t.vault.notes.update(note.id, { content: 'Alpha after\n' }, note.contentHash);
      const file = path.join(t.root, gamma as string);
      fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('Gamma before', 'Gamma edited by hand'));
    });
    const t = await reopen(root);
    try {
      const contents = await Promise.all(ids.map(async (id) => (await t.vault.notes.require(id)).content));
      expect(contents).toEqual(['Alpha before\n', 'Beta before\n', 'Gamma edited by hand\n']);
      // Put back byte for byte, its `updated` stamp included.
      expect(fs.readFileSync(path.join(root, ids[0] as string), 'utf8')).toBe(original[0]);
      const kept = (await operationJournal(t.vault.notes.store)?.list())?.find((e) => e.id === entry.id);
      expect(kept?.state).toBe('rolled-back');
      expect(kept?.recovery?.problems.join(' ')).toContain(ids[2]);
    } finally {
      await t.close();
    }
  });
});
