import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TEMP_PREFIX, writeFileAtomic } from '../../../toolkit/files/atomic-write.js';
import { contentHash } from '../../../toolkit/hash.js';
import { RetiredFiles } from '../../../toolkit/files/retired-files.js';
import { removeDir, tempDir } from '../../support/temp.js';

let dir: string;
beforeEach(async () => {
  dir = await tempDir();
});
afterEach(async () => {
  await removeDir(dir);
});

const temps = async () => (await fs.readdir(dir)).filter((n) => n.startsWith(TEMP_PREFIX));

describe('writeFileAtomic', () => {
  it('writes text and bytes exactly, replacing an existing file', async () => {
    const file = path.join(dir, 'a.md');
    await writeFileAtomic(file, 'first ünï\n');
    expect(await fs.readFile(file, 'utf8')).toBe('first ünï\n');
    const bytes = new Uint8Array([0, 1, 2, 255]);
    await writeFileAtomic(file, bytes);
    expect(new Uint8Array(await fs.readFile(file))).toEqual(bytes);
    expect(await fs.readdir(dir)).toEqual(['a.md']);
  });

  it('exclusive: creates when absent, refuses with conflict when present, old bytes kept', async () => {
    const file = path.join(dir, 'b.md');
    await writeFileAtomic(file, 'original', { exclusive: true });
    await expect(writeFileAtomic(file, 'second', { exclusive: true })).rejects.toMatchObject({
      code: 'conflict',
      details: { path: file },
    });
    expect(await fs.readFile(file, 'utf8')).toBe('original');
    expect(await temps()).toEqual([]);
  });

  it('exclusive: of many concurrent creators exactly one wins', async () => {
    const file = path.join(dir, 'race.md');
    const results = await Promise.allSettled(
      Array.from({ length: 16 }, (_, i) => writeFileAtomic(file, `writer ${i}`, { exclusive: true })),
    );
    const winners = results.map((r, i) => (r.status === 'fulfilled' ? i : -1)).filter((i) => i >= 0);
    expect(winners).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'conflict' });
    expect(await fs.readFile(file, 'utf8')).toBe(`writer ${winners[0]}`);
    expect(await temps()).toEqual([]);
  });

  it('concurrent plain writers: the file is always one whole version, never torn', async () => {
    const file = path.join(dir, 'big.md');
    const versions = Array.from({ length: 8 }, (_, i) => String(i).repeat(256 * 1024));
    await writeFileAtomic(file, versions[0]!);
    const known = new Set(versions.map((v) => contentHash(v)));
    let done = false;
    const seen: string[] = [];
    const reader = (async () => {
      while (!done) {
        seen.push(contentHash(await fs.readFile(file)));
        await new Promise((r) => setImmediate(r));
      }
    })();
    await Promise.all(versions.map((v) => writeFileAtomic(file, v)));
    done = true;
    await reader;
    expect(seen.length).toBeGreaterThan(0);
    for (const hash of seen) expect(known.has(hash)).toBe(true);
    expect(known.has(contentHash(await fs.readFile(file)))).toBe(true);
    expect(await temps()).toEqual([]);
  });

  it('holds the rename at beforeRename: the synced temp file waits, the target keeps its old bytes', async () => {
    const file = path.join(dir, 'a.md');
    await writeFileAtomic(file, 'old\n');
    const order: string[] = [];
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let held!: () => void;
    const atRename = new Promise<void>((resolve) => (held = resolve));
    const writing = writeFileAtomic(file, 'new\n', {
      beforeSync: async () => void order.push('sync'),
      beforeRename: async () => {
        order.push('rename');
        held();
        await gate;
      },
    });
    await atRename;
    expect(order).toEqual(['sync', 'rename']);
    expect(await fs.readFile(file, 'utf8')).toBe('old\n');
    expect(await temps()).toHaveLength(1);
    open();
    await writing;
    expect(await fs.readFile(file, 'utf8')).toBe('new\n');
    expect(await temps()).toEqual([]);
  });

  it('a missing folder fails cleanly, leaving nothing', async () => {
    await expect(writeFileAtomic(path.join(dir, 'missing', 'x.md'), 'x')).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await fs.readdir(dir)).toEqual([]);
  });

  it('a target that is a folder fails and the temp file is removed', async () => {
    await fs.mkdir(path.join(dir, 'folder'));
    await fs.writeFile(path.join(dir, 'folder', 'keep'), 'k');
    await expect(writeFileAtomic(path.join(dir, 'folder'), 'x')).rejects.toBeDefined();
    await expect(writeFileAtomic(path.join(dir, 'folder'), 'x', { exclusive: true })).rejects.toMatchObject({
      code: 'conflict',
    });
    expect(await temps()).toEqual([]);
    expect(await fs.readFile(path.join(dir, 'folder', 'keep'), 'utf8')).toBe('k');
  });

  it('replaces a symlink itself rather than writing through it', async () => {
    const outside = await tempDir('nk-outside-');
    try {
      await fs.writeFile(path.join(outside, 'target.txt'), 'outside');
      await fs.symlink(path.join(outside, 'target.txt'), path.join(dir, 'link.md'));
      await writeFileAtomic(path.join(dir, 'link.md'), 'inside');
      expect(await fs.readFile(path.join(outside, 'target.txt'), 'utf8')).toBe('outside');
      expect((await fs.lstat(path.join(dir, 'link.md'))).isSymbolicLink()).toBe(false);
      expect(await fs.readFile(path.join(dir, 'link.md'), 'utf8')).toBe('inside');
    } finally {
      await removeDir(outside);
    }
  });
});

describe('contentHash', () => {
  it('is sha256 over the UTF-8 bytes, equal for a string and its bytes', () => {
    expect(contentHash('')).toBe('sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(contentHash('ünï 🎉')).toBe(contentHash(Buffer.from('ünï 🎉', 'utf8')));
    expect(contentHash('a')).not.toBe(contentHash('a\n'));
    expect(contentHash('x')).toMatch(/^sha256:[0-9a-f]{64}$/);
  });
});

describe('writeFileAtomic with retireOld', () => {
  it('keeps the replaced version under a temp name until RetiredFiles removes it', async () => {
    const file = path.join(dir, 'r.md');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const retired = new RetiredFiles();
      const handed: string[] = [];
      const retireOld = (old: string) => {
        handed.push(old);
        retired.add(old);
      };
      await writeFileAtomic(file, 'v1', { retireOld });
      expect(handed).toEqual([]); // nothing replaced yet
      await writeFileAtomic(file, 'v2', { retireOld });
      expect(await fs.readFile(file, 'utf8')).toBe('v2');
      expect(handed).toHaveLength(1);
      expect(path.basename(handed[0] as string).startsWith(TEMP_PREFIX)).toBe(true);
      expect(await fs.readFile(handed[0] as string, 'utf8')).toBe('v1');
      vi.advanceTimersByTime(99);
      expect(await temps()).toHaveLength(1); // not on the write's path: a moment later
      vi.advanceTimersByTime(1);
      // the sweep unlinks in the thread pool: real I/O, polled
      await vi.waitFor(async () => expect(await temps()).toEqual([]));
      await writeFileAtomic(file, 'v3', { retireOld });
      retired.close();
      expect(await fs.readdir(dir)).toEqual(['r.md']);
    } finally {
      vi.useRealTimers();
    }
  });
});
