import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FileLocks } from '../../../kernel/util/file-lock.js';
import { removeDir, tempDir } from '../../support/temp.js';

const dirs: string[] = [];
afterEach(async () => {
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
    await Promise.all(
      [1, 2, 3].map((n) =>
        locks.run('note', async () => {
          order.push(`in${n}`);
          await new Promise((r) => setTimeout(r, 10));
          order.push(`out${n}`);
        }),
      ),
    );
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
    await probe.run('k', async () => {
      const [file] = await fs.readdir(dir);
      await fs.rm(path.join(dir, file as string));
      await fs.symlink(`${deadPid} ${Date.now()}`, path.join(dir, file as string));
    }).catch(() => undefined);
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
    const held = holder.run('k', () => new Promise<void>((r) => (release = r)));
    await new Promise((r) => setTimeout(r, 10));
    await expect(impatient.run('k', async () => 1)).rejects.toMatchObject({ code: 'conflict' });
    release();
    await held;
  });
});
