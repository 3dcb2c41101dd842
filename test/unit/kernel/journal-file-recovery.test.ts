/**
 * Journal recovery of plain-file steps (`text` with `file: true`: the migrate tool's v1 entries,
 * decision 025) on a real markdown-git vault: a migration cut short — the v2 file written, the
 * v1 file not yet removed — is finished at the next open; and rolled back, the v2 file removed,
 * when the v1 file was edited by someone else in between. And a v1 file is never removed while
 * the v2 file replacing it is not in place (its create failed): the entry is never lost.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { operationJournal, type JournalEntry } from '../../../toolkit/plans/journal.js';
import { newEntryId } from '../../../toolkit/plans/operations.js';
import { contentHash } from '../../../toolkit/hash.js';
import { createTestKernel, removeDir } from '../../support/temp.js';
import { applyPlan } from '../../../toolkit/plans/plan-runner.js';

let roots: string[] = [];
afterEach(async () => {
  await Promise.all(roots.map(removeDir));
  roots = [];
});

const V1_PATH = '_top-of-mind plan id__Pln123.md';
const V1 = '<!-- agent-memory:meta {"id":"id__Pln123","title":"Plan"} -->\n\nThe plan.\n';
const V2_PATH = 'plan id__Pln123.md';
const V2 = '# Plan\n\nThe plan.\n';

async function cutShort(edit?: (root: string) => void): Promise<{ root: string; entry: JournalEntry }> {
  const t = await createTestKernel({ profile: 'agent-memory', init: false });
  roots.push(t.root);
  fs.writeFileSync(path.join(t.root, V1_PATH), V1);
  await t.vault.notes.store.refresh!();
  const entry: JournalEntry = {
    id: newEntryId(),
    operation: 'migrate',
    at: new Date().toISOString(),
    state: 'pending',
    steps: [
      { kind: 'text', path: V2_PATH, before: null, text: V2, file: true },
      { kind: 'text', path: V1_PATH, before: { text: V1, hash: contentHash(V1) }, text: null, file: true },
    ],
    results: [],
  };
  await t.vault.notes.store.journal?.begin(entry);
  fs.writeFileSync(path.join(t.root, V2_PATH), V2);
  edit?.(t.root);
  await t.kernel.close();
  return { root: t.root, entry };
}

const read = (root: string, rel: string) =>
  fs.existsSync(path.join(root, rel)) ? fs.readFileSync(path.join(root, rel), 'utf8') : null;

describe('journal recovery of plain-file steps', () => {
  it('finishes a migration cut short: the v1 file goes, the v2 file stays, the entry is readable', async () => {
    const { root, entry } = await cutShort();
    const t = await createTestKernel({ profile: 'agent-memory', root, init: false });
    try {
      expect([read(root, V2_PATH), read(root, V1_PATH)]).toEqual([V2, null]);
      const kept = (await operationJournal(t.vault.notes.store)?.list())?.find((e) => e.id === entry.id);
      expect(kept?.recovery).toMatchObject({ outcome: 'rolled-forward', applied: 1, problems: [] });
      expect(await t.vault.call('memory_read', { id: 'Pln123' })).toMatchObject({ title: 'Plan' });
    } finally {
      await t.close();
    }
  });

  it('rolls it back when the v1 file was edited in between: the v2 file goes, the edit stays', async () => {
    const edited = V1.replace('The plan.', 'The plan, edited by hand.');
    const { root, entry } = await cutShort((r) => fs.writeFileSync(path.join(r, V1_PATH), edited));
    const t = await createTestKernel({ profile: 'agent-memory', root, init: false });
    try {
      expect([read(root, V2_PATH), read(root, V1_PATH)]).toEqual([null, edited]);
      const kept = (await operationJournal(t.vault.notes.store)?.list())?.find((e) => e.id === entry.id);
      expect(kept?.state).toBe('rolled-back');
      expect(kept?.recovery?.problems.join(' ')).toContain(V1_PATH);
    } finally {
      await t.close();
    }
  });

  it('keeps a v1 file whose v2 file could not be written (another file took its name)', async () => {
    const t = await createTestKernel({ profile: 'agent-memory', init: false });
    roots.push(t.root);
    const other = '# Someone else\n\nTheirs.\n';
    fs.writeFileSync(path.join(t.root, V1_PATH), V1);
    fs.writeFileSync(path.join(t.root, V2_PATH), other);
    try {
      const applied = await applyPlan(t.vault.notes, 'migrate', [
        { kind: 'text', file: true, path: V2_PATH, text: V2, expectedHash: null },
        {
          kind: 'text',
          file: true,
          path: V1_PATH,
          text: null,
          expectedHash: contentHash(V1),
          replacedBy: { path: V2_PATH, hash: contentHash(V2) },
        },
      ]);
      expect(applied.results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
      expect(String((applied.results[1] as PromiseRejectedResult).reason)).toContain('is not in place');
      expect([read(t.root, V2_PATH), read(t.root, V1_PATH)]).toEqual([other, V1]);
    } finally {
      await t.close();
    }
  });
});
