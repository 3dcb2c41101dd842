/** `watch` on the simplenote store: other devices' writes and deletions, never our own writes. */
import { expect, it } from 'vitest';
import type { ExternalChange } from '../../../kernel/backend.js';
import { openSimplenote } from '../../support/simplenote-subject.js';

it("reports writes and deletions from another device, not this store's own writes", async () => {
  const subject = await openSimplenote();
  try {
    const store = subject.instance.store!;
    const changes: ExternalChange[] = [];
    let bothSeen!: () => void;
    const seen = new Promise<void>((resolve) => (bothSeen = resolve));
    const unsubscribe = store.watch!((change) => {
      changes.push(change);
      if (changes.length === 2) bothSeen();
    });
    const mine = await store.create({ title: 'Mine', content: 'x' });
    const theirs = await store.create({ title: 'Theirs', content: 'y' });
    await store.refresh!(); // our own writes come back through the sync: no event
    expect(changes).toEqual([]);
    await subject.outside.append(theirs, '\nedited elsewhere');
    await subject.outside.remove(mine);
    await seen; // the next sync brings both
    unsubscribe();
    expect(changes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          kind: 'written',
          note: expect.objectContaining({ id: theirs.id, content: 'y\nedited elsewhere' }),
          previous: expect.objectContaining({ contentHash: theirs.contentHash }),
        }),
        expect.objectContaining({ kind: 'deleted', id: mine.id, previous: expect.objectContaining({ title: 'Mine' }) }),
      ]),
    );
  } finally {
    await subject.close();
  }
});
