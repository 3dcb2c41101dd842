import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DirectorySync } from '../../../toolkit/files/directory-sync.js';

describe('DirectorySync', () => {
  afterEach(() => vi.restoreAllMocks());

  it('shares one fsync among callers that ask before it starts, and runs a new one for a later caller', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'nk-dirsync-'));
    const opened: string[] = [];
    const open = fs.open;
    vi.spyOn(fs, 'open').mockImplementation(async (...args: Parameters<typeof fs.open>) => {
      opened.push(String(args[0]));
      return open(...args);
    });
    const syncs = new DirectorySync();
    await Promise.all(Array.from({ length: 10 }, () => syncs.sync(dir)));
    expect(opened).toEqual([dir]);
    await syncs.sync(dir);
    expect(opened).toEqual([dir, dir]);
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('never fails a write because the folder refuses fsync', async () => {
    await expect(new DirectorySync().sync(path.join(os.tmpdir(), 'nk-no-such-folder'))).resolves.toBeUndefined();
  });
});
