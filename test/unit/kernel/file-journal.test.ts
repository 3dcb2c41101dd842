/** The file journal's undo window: closed entries beyond the count or the age are dropped when a new one begins; open ones never. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { JournalEntry } from '../../../toolkit/plans/journal.js';
import { newEntryId } from '../../../toolkit/plans/operations.js';
import { FileJournal } from '../../../toolkit/files/file-journal.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function entry(at: Date, state: JournalEntry['state'] = 'done'): JournalEntry {
  return { id: newEntryId(at), operation: 'test', at: at.toISOString(), state, steps: [], results: [] };
}

describe('FileJournal window', () => {
  it('keeps the newest closed entries within the count and the age, and every open one', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nk-journal-'));
    dirs.push(dir);
    const journal = new FileJournal(dir, { keep: 2, maxAgeMs: 3_600_000 });
    const now = Date.now();
    const old = entry(new Date(now - 2 * 3_600_000));
    const open = entry(new Date(now - 3 * 3_600_000), 'pending');
    const recent = [1, 2, 3].map((k) => entry(new Date(now - k * 60_000)));
    for (const e of [old, open, ...recent]) {
      await journal.begin(e);
      if (e.state !== 'pending') await journal.finish(e);
    }
    await journal.begin(entry(new Date(now), 'pending'));
    const kept = (await journal.list()).map((e) => e.id);
    expect(kept).toContain(open.id);
    expect(kept).not.toContain(old.id);
    expect(kept.filter((id) => recent.some((r) => r.id === id))).toEqual([recent[0]?.id, recent[1]?.id]);
    expect((await journal.unfinished()).map((e) => e.id)).toContain(open.id);
  });

  it('drops a closed entry past the age within the count, and reads no entry inside the window', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nk-journal-'));
    dirs.push(dir);
    const journal = new FileJournal(dir, { keep: 10, maxAgeMs: 3_600_000 });
    const now = Date.now();
    const old = entry(new Date(now - 2 * 3_600_000));
    const recent = entry(new Date(now - 60_000));
    for (const e of [old, recent]) {
      await journal.begin(e);
      await journal.finish(e);
    }
    // Unreadable, but inside the window by its name: left alone, so it was not read.
    const inside = `${newEntryId(new Date(now - 30_000))}.json`;
    fs.writeFileSync(path.join(dir, inside), '{ not json');
    await journal.begin(entry(new Date(now), 'pending'));
    const ids = (await journal.list()).map((e) => e.id);
    expect(ids).toContain(recent.id);
    expect(ids).not.toContain(old.id);
    expect(fs.existsSync(path.join(dir, inside))).toBe(true);
  });

  it('folds the progress log into an open entry, ignoring a line cut short', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nk-journal-'));
    dirs.push(dir);
    const journal = new FileJournal<JournalEntry>(dir);
    const e = entry(new Date(), 'pending');
    await journal.begin({
      ...e,
      steps: [
        { kind: 'create', input: { title: 'a', content: '' } },
        { kind: 'create', input: { title: 'b', content: '' } },
      ],
    });
    journal.progress(e.id, 1, { id: 'general/b.md', hash: 'sha256:b' });
    fs.appendFileSync(path.join(dir, `${e.id}.log`), '{"step":0,"id":"gen');
    const [open] = await journal.unfinished();
    expect(open?.results?.[1]).toEqual({ id: 'general/b.md', hash: 'sha256:b' });
    expect(open?.results?.[0]).toBeUndefined();
  });
});
