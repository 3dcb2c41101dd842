import { describe, expect, it } from 'vitest';
import { Barrier } from '../../../toolkit/files/barrier.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('Barrier', () => {
  it('lets nobody through until every party has passed or left', async () => {
    const barrier = new Barrier(3);
    const [a, b, c] = [barrier.passer(), barrier.passer(), barrier.passer()];
    const through: string[] = [];
    void a.pass().then(() => through.push('a'));
    void b.pass().then(() => through.push('b'));
    await tick();
    expect(through).toEqual([]);
    c.leave();
    await tick();
    expect(through.sort()).toEqual(['a', 'b']);
  });

  it('waits only on a party’s first pass, and a party that passed cannot leave twice', async () => {
    const barrier = new Barrier(2);
    const [a, b] = [barrier.passer(), barrier.passer()];
    let opened = false;
    void a.pass().then(() => (opened = true));
    a.leave();
    await tick();
    expect(opened).toBe(false); // a's leave after its pass is not a second party
    await Promise.all([b.pass(), a.pass()]);
    expect(opened).toBe(true);
  });

  it('is open from the start with no parties', async () => {
    await expect(new Barrier(0).passer().pass()).resolves.toBeUndefined();
  });
});
