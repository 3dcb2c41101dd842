/**
 * Journal recovery of exact-text steps (the Obsidian tools' moves and frontmatter batches,
 * decision 025) on a real fs-sqlite vault: a move cut short — the copy written, the source and a
 * linking note not yet — is finished at the next open, byte for byte; and rolled back, the copy
 * removed and the source kept, when the linking note was edited by someone else in between.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { operationJournal, type JournalEntry } from '../../../toolkit/plans/journal.js';
import { newEntryId } from '../../../toolkit/plans/operations.js';
import { contentHash } from '../../../toolkit/hash.js';
import { createTestKernel, removeDir } from '../../support/temp.js';

let roots: string[] = [];
afterEach(async () => {
  await Promise.all(roots.map(removeDir));
  roots = [];
});

const OLD = '---\n# as the user wrote it\nstatus:   draft\n---\nThe plan.\n';
const LINKER = '---\ntitle: Linker\n---\nSee [[old-plan]].\n';
const LINKER_AFTER = '---\ntitle: Linker\n---\nSee [[new-plan]].\n';

/** `general/old-plan.md` moving to `general/new-plan.md`, `general/linker.md` rewritten; the copy made, then the "crash". */
async function cutShort(edit?: (root: string) => void): Promise<{ root: string; entry: JournalEntry }> {
  const t = await createTestKernel();
  roots.push(t.root);
  const write = (rel: string, text: string) => fs.writeFileSync(path.join(t.root, rel), text);
  write('general/old-plan.md', OLD);
  write('general/linker.md', LINKER);
  await t.vault.notes.store.refresh!();
  const entry: JournalEntry = {
    id: newEntryId(),
    operation: 'move_file',
    at: new Date().toISOString(),
    state: 'pending',
    steps: [
      { kind: 'text', path: 'general/new-plan.md', before: null, text: OLD },
      { kind: 'text', path: 'general/old-plan.md', before: { text: OLD, hash: contentHash(OLD) }, text: null },
      {
        kind: 'text',
        path: 'general/linker.md',
        before: { text: LINKER, hash: contentHash(LINKER) },
        text: LINKER_AFTER,
      },
    ],
    results: [],
  };
  await t.vault.notes.store.journal?.begin(entry);
  write('general/new-plan.md', OLD);
  edit?.(t.root);
  await t.kernel.close();
  return { root: t.root, entry };
}

const read = (root: string, rel: string) =>
  fs.existsSync(path.join(root, rel)) ? fs.readFileSync(path.join(root, rel), 'utf8') : null;

describe('journal recovery of exact-text steps', () => {
  it('finishes a move cut short: the source goes, the link is rewritten, the frontmatter kept as written', async () => {
    const { root, entry } = await cutShort();
    const t = await createTestKernel({ root, init: false });
    try {
      expect([
        read(root, 'general/new-plan.md'),
        read(root, 'general/old-plan.md'),
        read(root, 'general/linker.md'),
      ]).toEqual([OLD, null, LINKER_AFTER]);
      const kept = (await operationJournal(t.vault.notes.store)?.list())?.find((e) => e.id === entry.id);
      expect(kept?.recovery).toMatchObject({ outcome: 'rolled-forward', applied: 2, problems: [] });
    } finally {
      await t.close();
    }
  });

  it('rolls it back when the linking note was edited in between: the copy goes, the source and the edit stay', async () => {
    const edited = LINKER.replace('See', 'Edited by hand; see');
    const { root, entry } = await cutShort((r) => fs.writeFileSync(path.join(r, 'general/linker.md'), edited));
    const t = await createTestKernel({ root, init: false });
    try {
      expect([
        read(root, 'general/new-plan.md'),
        read(root, 'general/old-plan.md'),
        read(root, 'general/linker.md'),
      ]).toEqual([null, OLD, edited]);
      const kept = (await operationJournal(t.vault.notes.store)?.list())?.find((e) => e.id === entry.id);
      expect(kept?.state).toBe('rolled-back');
      expect(kept?.recovery?.problems.join(' ')).toContain('general/linker.md');
    } finally {
      await t.close();
    }
  });
});
