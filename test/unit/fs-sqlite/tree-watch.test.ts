/**
 * The flat layout's recursive watch (watchNoteFiles in toolkit/files/folder-watch.ts): notes at
 * any depth, a burst, a folder moved in with its notes, and nothing after the stop (decision 016:
 * why Node's recursive fs.watch and not @parcel/watcher or chokidar).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../../../kernel/logger.js';
import type { Layout } from '../../../backends/fs-sqlite/layout.js';
import { watchNoteFiles } from '../../../toolkit/files/folder-watch.js';
import { removeDir, tempDir } from '../../support/temp.js';

const flat: Layout = { kind: 'flat', metaDir: '.notekernel', defaultType: 'general' };
const PROBE = 'deep/er/watch-ready.md';

let base: string;
let root: string;
let seen: Set<string>;
let stop: () => Promise<void>;

/**
 * A tree watch that has started: Node's recursive watch adds its folders asynchronously, so a
 * probe note in the deepest folder is rewritten until it is reported (the probe is not passed on).
 */
async function startedWatch(onNote: (rel: string) => void): Promise<() => Promise<void>> {
  let ready = false;
  const stopWatch = watchNoteFiles(root, flat, silentLogger(), async (batch) => {
    for (const rel of batch)
      if (rel === PROBE) ready = true;
      else onNote(rel);
  });
  await vi.waitFor(
    async () => {
      await fs.writeFile(path.join(root, PROBE), 'probe');
      if (!ready) throw new Error('the tree watch has not started');
    },
    { timeout: 10_000, interval: 25 },
  );
  return stopWatch;
}

/** The paths not yet reported once the watcher has reported them all, or the wait's bound has passed. */
async function until(paths: string[], ms = 15_000): Promise<string[]> {
  const missing = () => paths.filter((p) => !seen.has(p));
  await vi.waitFor(() => expect(missing()).toEqual([]), { timeout: ms, interval: 25 }).catch(() => undefined);
  return missing();
}

beforeEach(async () => {
  base = await tempDir('nk-tree-watch-');
  root = path.join(base, 'vault');
  await fs.mkdir(path.join(root, 'deep', 'er'), { recursive: true });
  await fs.mkdir(path.join(root, '.notekernel'));
  seen = new Set();
  stop = await startedWatch((rel) => seen.add(rel));
});
afterEach(async () => {
  await stop();
  await removeDir(base);
});

describe('flat layout tree watch', () => {
  it('reports notes written at any depth, and not the metadata folder or other files', async () => {
    // The files it must skip first: once the notes written after them are reported, so would they have been.
    await fs.writeFile(path.join(root, 'deep', 'not-a-note.txt'), 'x');
    await fs.writeFile(path.join(root, '.notekernel', 'inside.md'), 'x');
    await fs.writeFile(path.join(root, 'top.md'), 'x');
    await fs.writeFile(path.join(root, 'deep', 'er', 'low.md'), 'x');
    expect(await until(['top.md', 'deep/er/low.md'])).toEqual([]);
    expect([...seen].sort()).toEqual(['deep/er/low.md', 'top.md']);
  });

  it('reports every note of a burst of 500 writes', async () => {
    const burst = Array.from({ length: 500 }, (_, i) => (i % 2 ? `deep/b-${i}.md` : `b-${i}.md`));
    for (const rel of burst) await fs.writeFile(path.join(root, rel), 'burst');
    expect(await until(burst)).toEqual([]);
  });

  it('reports the notes of a folder moved in, and later writes inside it', async () => {
    const outside = path.join(base, 'outside', 'sub');
    await fs.mkdir(outside, { recursive: true });
    for (let i = 0; i < 20; i++) await fs.writeFile(path.join(outside, `m-${i}.md`), 'moved');
    await fs.rename(path.join(base, 'outside'), path.join(root, 'moved'));
    const moved = Array.from({ length: 20 }, (_, i) => `moved/sub/m-${i}.md`);
    expect(await until(moved)).toEqual([]);
    // The moved-in folder is watched once Node has added it, at a moment of its own: written until reported.
    const later = path.join(root, 'moved', 'sub', 'later.md');
    await vi.waitFor(
      async () => {
        await fs.writeFile(later, 'x');
        expect(seen.has('moved/sub/later.md')).toBe(true);
      },
      { timeout: 15_000, interval: 25 },
    );
  });

  it('reports nothing once stopped', async () => {
    await stop();
    // A second watch on the same tree: when it has reported the write, a live first one would have too.
    const witnessed = new Set<string>();
    const stopWitness = await startedWatch((rel) => witnessed.add(rel));
    try {
      await fs.writeFile(path.join(root, 'after.md'), 'x');
      await vi.waitFor(() => expect(witnessed.has('after.md')).toBe(true), { timeout: 15_000, interval: 25 });
      await new Promise((resolve) => setImmediate(resolve));
      expect(seen.has('after.md')).toBe(false);
    } finally {
      await stopWitness();
    }
  });
});
