/**
 * The NoteStore contract's second half: batches of compare-and-swaps, delete, listing and
 * refresh. Called by describeNoteStoreContract with its view of the subject under test.
 */
import { describe, expect, type TestContext } from 'vitest';
import type { NoteStore, RefreshReport } from '../kernel/backend.js';
import type { Note } from '../kernel/note.js';
import { updateEach } from '../kernel/notes.js';
import { expectCode, sha256, tick, type ContractTest, type OutsideWorld } from './contract-support.js';

/** What the two halves of the suite share: the store under test and another program's view of it. */
export interface StoreView {
  s(): NoteStore;
  /** The outside view, or the test is skipped for a backend that gives none. */
  outside(ctx: TestContext): OutsideWorld;
  /** The outside view when the backend gives one. */
  seenOutside(): OutsideWorld | undefined;
}

export function describeWritesAndListingContract({ s, outside, seenOutside }: StoreView, test: ContractTest): void {
  /** `refresh`, or the test is skipped for a store with nothing to re-read (extension `refresh`). */
  const refresh = (ctx: TestContext): Promise<RefreshReport> => {
    const store = s();
    if (!store.refresh) ctx.skip();
    return store.refresh!();
  };

  describe('update with an edit (NoteEdit: the change made from the note as read under the lock)', () => {
    test('the edit gets the note as stored, and what it returns is written', async () => {
      const note = await s().create({ title: 'Edited', content: 'before', tags: ['t1'] });
      const seen: Note[] = [];
      const updated = await s().update(
        note.id,
        (current) => {
          seen.push(current);
          return { content: `${current.content} and after` };
        },
        note.contentHash,
      );
      expect(seen).toHaveLength(1);
      expect(seen[0]).toMatchObject({ id: note.id, title: 'Edited', content: 'before', contentHash: note.contentHash });
      expect(updated.content).toBe('before and after');
      expect((await s().get(note.id))?.content).toBe('before and after');
    });

    test('an edit that throws writes nothing, and its error is the update’s', async () => {
      const note = await s().create({ title: 'Refused edit', content: 'kept' });
      const refusal = Object.assign(new Error('refused by the edit'), { code: 'validation_failed' });
      await expect(
        s().update(
          note.id,
          () => {
            throw refusal;
          },
          note.contentHash,
        ),
      ).rejects.toBe(refusal);
      expect(await s().get(note.id)).toMatchObject({ content: 'kept', contentHash: note.contentHash });
    });

    test('a stale hash is refused before the edit runs', async () => {
      const note = await s().create({ title: 'Stale edit', content: 'x' });
      let called = false;
      const edit = () => {
        called = true;
        return { content: 'never' };
      };
      await expectCode(s().update(note.id, edit, sha256('not the current bytes')), 'content_hash_mismatch');
      expect(called).toBe(false);
      expect((await s().get(note.id))?.content).toBe('x');
    });

    test('updateMany takes edits too, each item its own', async () => {
      const a = await s().create({ title: 'Edit many A', content: 'a' });
      const b = await s().create({ title: 'Edit many B', content: 'b' });
      const results = await updateEach(s(), [
        { id: a.id, change: (current) => ({ content: `${current.content}!` }), expectedHash: a.contentHash },
        { id: b.id, change: () => Promise.reject(new Error('no')), expectedHash: b.contentHash },
      ]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
      expect((await s().get(a.id))?.content).toBe('a!');
      expect((await s().get(b.id))?.content).toBe('b');
    });
  });

  describe('updateMany (several compare-and-swaps at once)', () => {
    test('each item stands alone: results in input order, a stale or missing one fails without stopping the rest', async () => {
      const a = await s().create({ title: 'Many A', content: 'a' });
      const b = await s().create({ title: 'Many B', content: 'b' });
      const c = await s().create({ title: 'Many C', content: 'c' });
      const gone = await s().create({ title: 'Many gone', content: 'g' });
      await s().delete(gone.id);
      const results = await updateEach(s(), [
        { id: c.id, change: { content: 'c2' }, expectedHash: c.contentHash },
        { id: b.id, change: { content: 'b2' }, expectedHash: sha256('not the current bytes') },
        { id: gone.id, change: { content: 'g2' }, expectedHash: gone.contentHash },
        { id: a.id, change: { content: 'a2' }, expectedHash: a.contentHash },
      ]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
      expect(results[1]).toMatchObject({ reason: { code: 'content_hash_mismatch' } });
      expect(results[2]).toMatchObject({ reason: { code: 'not_found' } });
      expect((results[0] as PromiseFulfilledResult<Note>).value).toMatchObject({ id: c.id, content: 'c2' });
      expect(await s().get(a.id)).toMatchObject({
        content: 'a2',
        contentHash: (results[3] as PromiseFulfilledResult<Note>).value.contentHash,
      });
      expect((await s().get(b.id))?.content).toBe('b');
    });

    test('one note named twice with one hash: the first wins, the second is refused, as two updates would be', async () => {
      const note = await s().create({ title: 'Twice', content: 'x' });
      const results = await updateEach(s(), [
        { id: note.id, change: { content: 'first' }, expectedHash: note.contentHash },
        { id: note.id, change: { content: 'second' }, expectedHash: note.contentHash },
      ]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected']);
      expect((await s().get(note.id))?.content).toBe('first');
    });
  });

  describe('delete', () => {
    test('returns the note as it was; afterwards it is gone from get, list and count', async () => {
      const keep = await s().create({ title: 'Keep', content: 'k' });
      const note = await s().create({ title: 'Delete me', content: 'bye\n', tags: ['x'] });
      const deleted = await s().delete(note.id, note.contentHash);
      expect(deleted).toMatchObject({
        id: note.id,
        title: 'Delete me',
        content: 'bye\n',
        tags: ['x'],
        contentHash: note.contentHash,
      });
      expect(await s().get(note.id)).toBeUndefined();
      expect((await s().list()).map((n) => n.id)).toEqual([keep.id]);
      expect(await s().count()).toBe(1);
      const seen = seenOutside();
      if (seen) expect(await seen.exists(note), 'stored form removed').toBe(false);
      await expectCode(s().delete(note.id), 'not_found');
    });

    test('a stale expectedHash is refused and the note survives', async () => {
      const note = await s().create({ title: 'Guarded', content: 'v1' });
      const v2 = await s().update(note.id, { content: 'v2' }, note.contentHash);
      await expectCode(s().delete(note.id, note.contentHash), 'content_hash_mismatch', {
        current_hash: v2.contentHash,
        provided_hash: note.contentHash,
      });
      expect((await s().get(note.id))?.content).toBe('v2');
      expect(await s().count()).toBe(1);
      await s().delete(note.id); // without a hash: unconditional
      expect(await s().get(note.id)).toBeUndefined();
    });
  });

  describe('list and count', () => {
    async function threeNotes(): Promise<Note[]> {
      const notes: Note[] = [];
      for (const title of ['Charlie', 'Alpha', 'Bravo']) {
        notes.push(await s().create({ title, content: title.toLowerCase() }));
        await tick();
      }
      return notes;
    }

    test('summaries agree with the notes', async () => {
      const [c] = await threeNotes();
      const summary = (await s().list()).find((n) => n.id === c!.id);
      const note = (await s().get(c!.id))!;
      expect(summary).toEqual({
        id: note.id,
        title: note.title,
        ...(note.type !== undefined ? { type: note.type } : {}),
        ...(note.path !== undefined ? { path: note.path, filename: note.filename } : {}),
        created: note.created,
        updated: note.updated,
        ...(note.size !== undefined ? { size: note.size } : {}),
        contentHash: note.contentHash,
        tags: note.tags,
        metadata: note.metadata,
      });
      expect(await s().count()).toBe(3);
    });

    test('orders by updated, created and title in both directions', async () => {
      const [c] = await threeNotes();
      const titles = async (orderBy: 'updated' | 'created' | 'title', direction: 'asc' | 'desc') =>
        (await s().list({ orderBy, direction })).map((n) => n.title);
      expect(await titles('created', 'asc')).toEqual(['Charlie', 'Alpha', 'Bravo']);
      expect(await titles('created', 'desc')).toEqual(['Bravo', 'Alpha', 'Charlie']);
      expect(await titles('title', 'asc')).toEqual(['Alpha', 'Bravo', 'Charlie']);
      expect(await titles('title', 'desc')).toEqual(['Charlie', 'Bravo', 'Alpha']);
      expect(await titles('updated', 'desc')).toEqual(['Bravo', 'Alpha', 'Charlie']);
      await s().update(c!.id, { content: 'touched' }, c!.contentHash);
      expect(await titles('updated', 'desc')).toEqual(['Charlie', 'Bravo', 'Alpha']);
      expect(await titles('updated', 'asc')).toEqual(['Alpha', 'Bravo', 'Charlie']);
      expect(await titles('created', 'asc')).toEqual(['Charlie', 'Alpha', 'Bravo']);
    });

    test('pages with limit and offset', async () => {
      await threeNotes();
      const page = (q: { limit?: number; offset?: number }) =>
        s()
          .list({ orderBy: 'title', direction: 'asc', ...q })
          .then((l) => l.map((n) => n.title));
      expect(await page({ limit: 2 })).toEqual(['Alpha', 'Bravo']);
      expect(await page({ limit: 2, offset: 1 })).toEqual(['Bravo', 'Charlie']);
      expect(await page({ limit: 2, offset: 2 })).toEqual(['Charlie']);
      expect(await page({ offset: 1 })).toEqual(['Bravo', 'Charlie']);
      expect(await page({ limit: 5, offset: 3 })).toEqual([]);
      expect(await s().count()).toBe(3);
    });

    test('an empty store lists nothing', async () => {
      expect(await s().list()).toEqual([]);
      expect(await s().count()).toBe(0);
    });
  });

  describe('refresh', () => {
    test('reflects notes added, edited and deleted by another program, and reports counts', async (ctx) => {
      const out = outside(ctx);
      const stay = await s().create({ title: 'Stays', content: 'x' });
      const edit = await s().create({ title: 'Edited', content: 'short' });
      const gone = await s().create({ title: 'Removed', content: 'x' });
      const reborn = await s().create({
        title: 'Added outside',
        content: 'written by the backend, restored by hand\n',
      });
      const rebornBytes = await out.bytes(reborn);
      await s().delete(reborn.id);
      expect(await s().count()).toBe(3);

      await out.replace(reborn, rebornBytes); // added
      await out.append(edit, '\nplus a much longer tail from an editor\n'); // edited
      await out.remove(gone); // deleted
      const report = await refresh(ctx);

      expect(report).toMatchObject({ scanned: 3, removed: 1, skipped: [] });
      expect(report.indexed).toBeGreaterThanOrEqual(2);
      expect(report.ms).toBeGreaterThanOrEqual(0);
      const listed = await s().list();
      expect(listed.map((n) => n.id).sort()).toEqual([stay.id, edit.id, reborn.id].sort());
      expect(await s().count()).toBe(3);
      const editedSize = (await out.bytes(edit)).length;
      const editedSummary = listed.find((n) => n.id === edit.id);
      if (editedSummary?.size !== undefined) expect(editedSummary.size).toBe(editedSize);
      expect(editedSummary?.contentHash).toBe(sha256(await out.bytes(edit)));
      expect(listed.find((n) => n.id === reborn.id)?.title).toBe('Added outside');
      expect((await s().get(reborn.id))?.content).toBe('written by the backend, restored by hand\n');
      expect(await s().get(gone.id)).toBeUndefined();
    });

    test('an unchanged vault refreshes to the same listing', async (ctx) => {
      await s().create({ title: 'One', content: '1' });
      await s().create({ title: 'Two', content: '2' });
      const before = await s().list({ orderBy: 'title', direction: 'asc' });
      const report = await refresh(ctx);
      expect(report).toMatchObject({ scanned: 2, removed: 0, skipped: [] });
      expect(await s().list({ orderBy: 'title', direction: 'asc' })).toEqual(before);
    });
  });
}
