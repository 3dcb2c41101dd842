import { describe, expect, it } from 'vitest';
import { GroupCommit } from '../../../toolkit/files/group-commit.js';

describe('GroupCommit', () => {
  it('commits items added in the same turn together, and each caller waits for its own', async () => {
    const commits: number[][] = [];
    const group = new GroupCommit<number>((items) => void commits.push([...items]));
    await Promise.all([1, 2, 3].map((n) => group.add(n)));
    await group.add(4);
    expect(commits).toEqual([[1, 2, 3], [4]]);
  });

  it('fails only the item that fails when a shared commit throws', async () => {
    const committed: number[] = [];
    const group = new GroupCommit<number>((items) => {
      if (items.includes(2)) throw new Error('bad item 2');
      committed.push(...items);
    });
    const results = await Promise.allSettled([1, 2, 3].map((n) => group.add(n)));
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toMatchObject({ message: 'bad item 2' });
    expect(committed.sort()).toEqual([1, 3]);
  });

  it('lets items join a commit queued behind other work until it starts', async () => {
    let release!: () => void;
    const busy = new Promise<void>((resolve) => (release = resolve));
    const commits: string[][] = [];
    const group = new GroupCommit<string>(
      (items) => void commits.push([...items]),
      (flush) => busy.then(flush),
    );
    const first = group.add('a');
    await new Promise((r) => setImmediate(r));
    const second = group.add('b');
    release();
    await Promise.all([first, second]);
    expect(commits).toEqual([['a', 'b']]);
  });

  it('flush commits what is waiting at once', async () => {
    const commits: number[][] = [];
    const group = new GroupCommit<number>(
      (items) => void commits.push([...items]),
      () => new Promise(() => {}),
    );
    const pending = group.add(7);
    await group.flush();
    await pending;
    expect(commits).toEqual([[7]]);
  });
});
