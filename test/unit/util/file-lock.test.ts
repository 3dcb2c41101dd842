import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FileLocks } from '../../../toolkit/files/file-lock.js';
import { removeDir, tempDir } from '../../support/temp.js';

const dirs: string[] = [];
afterEach(async () => {
  vi.useRealTimers();
  await Promise.all(dirs.splice(0).map(removeDir));
});

async function lockDir(): Promise<string> {
  const dir = await tempDir();
  dirs.push(dir);
  return path.join(dir, 'locks');
}

describe('FileLocks (cross-process)', () => {
  it('serialises holders of one key and leaves no lock behind', async () => {
    const locks = new FileLocks(await lockDir());
    const order: string[] = [];
    // The waiters' polls and each holder's time inside run on the fake clock; the lock files are real.
    vi.useFakeTimers();
    const all = Promise.all(
      [1, 2, 3].map((n) =>
        locks.run('note', async () => {
          order.push(`in${n}`);
          await new Promise((r) => setTimeout(r, 10));
          order.push(`out${n}`);
        }),
      ),
    );
    await vi.runAllTimersAsync();
    await all;
    expect(order).toHaveLength(6);
    for (let i = 0; i < order.length; i += 2) expect(order[i + 1]).toBe(order[i]?.replace('in', 'out'));
  });

  it('breaks a lock whose owner died', async () => {
    const dir = await lockDir();
    const locks = new FileLocks(dir);
    const child = spawn(process.execPath, ['-e', '0']);
    const deadPid = child.pid as number;
    await new Promise((r) => child.once('exit', r));
    await fs.mkdir(dir, { recursive: true });
    let ran = false;
    // Take the lock as the dead process would have left it.
    const probe = new FileLocks(dir, { timeoutMs: 50 });
    await probe
      .run('k', async () => {
        const lock = (await fs.readdir(dir)).find((name) => name.endsWith('.lock'));
        await fs.rm(path.join(dir, lock as string));
        await fs.writeFile(path.join(dir, lock as string), `${deadPid} ${Date.now()}`);
      })
      .catch(() => undefined);
    await locks.run('k', async () => {
      ran = true;
    });
    expect(ran).toBe(true);
  });

  it('gives up with conflict when a live owner holds the lock too long', async () => {
    const dir = await lockDir();
    const holder = new FileLocks(dir);
    const impatient = new FileLocks(dir, { timeoutMs: 100 });
    let release!: () => void;
    let entered!: () => void;
    const inside = new Promise<void>((r) => (entered = r));
    const held = holder.run(
      'k',
      () =>
        new Promise<void>((r) => {
          release = r;
          entered();
        }),
    );
    await inside;
    vi.useFakeTimers();
    const refused = expect(impatient.run('k', async () => 1)).rejects.toMatchObject({ code: 'conflict' });
    await vi.advanceTimersByTimeAsync(150);
    await refused;
    release();
    await held;
  });
});

describe('FileLocks owner files', () => {
  it('takes locks as links to one owner file, removed on close, and sweeps owner files of dead processes', async () => {
    const dir = await lockDir();
    await fs.mkdir(dir, { recursive: true });
    const child = spawn(process.execPath, ['-e', '0']);
    const deadPid = child.pid as number;
    await new Promise((r) => child.once('exit', r));
    await fs.writeFile(path.join(dir, `owner-${deadPid}-abcd`), `${deadPid} 1`);
    const locks = new FileLocks(dir);
    await locks.run('a', async () => {
      await locks.run('b', async () => {
        const names = (await fs.readdir(dir)).sort();
        expect(names.filter((n) => n.endsWith('.lock'))).toHaveLength(2);
        expect(names.filter((n) => n.startsWith('owner-'))).toEqual([
          expect.stringMatching(new RegExp(`^owner-${process.pid}-`)),
        ]);
        const owner = names.find((n) => n.startsWith('owner-')) as string;
        expect((await fs.stat(path.join(dir, owner))).nlink).toBe(3);
      });
    });
    locks.close();
    expect(await fs.readdir(dir)).toEqual([]);
  });
});
