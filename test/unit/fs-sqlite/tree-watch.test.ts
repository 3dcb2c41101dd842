/**
 * The flat layout's recursive watch (watchNoteFiles in toolkit/files/folder-watch.ts): notes at
 * any depth, a burst, a folder moved in with its notes, and nothing after the stop (decision 016:
 * why Node's recursive fs.watch and not @parcel/watcher or chokidar).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../kernel/logger.js';
import type { Layout } from '../../../backends/fs-sqlite/layout.js';
import { watchNoteFiles } from '../../../toolkit/files/folder-watch.js';
import { removeDir, tempDir } from '../../support/temp.js';

const flat: Layout = { kind: 'flat', metaDir: '.notekernel', defaultType: 'general' };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let base: string;
let root: string;
let seen: Set<string>;
let stop: () => Promise<void>;

async function until(paths: string[], ms = 15_000): Promise<string[]> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline && !paths.every((p) => seen.has(p))) await sleep(25);
  return paths.filter((p) => !seen.has(p));
}

beforeEach(async () => {
  base = await tempDir('nk-tree-watch-');
  root = path.join(base, 'vault');
  await fs.mkdir(path.join(root, 'deep', 'er'), { recursive: true });
  await fs.mkdir(path.join(root, '.notekernel'));
  seen = new Set();
  stop = watchNoteFiles(root, flat, silentLogger(), async (batch) => {
    for (const rel of batch) seen.add(rel);
  });
  await sleep(300); // the tree watch starts asynchronously
});
afterEach(async () => {
  await stop();
  await removeDir(base);
});

describe('flat layout tree watch', () => {
  it('reports notes written at any depth, and not the metadata folder or other files', async () => {
    await fs.writeFile(path.join(root, 'top.md'), 'x');
    await fs.writeFile(path.join(root, 'deep', 'er', 'low.md'), 'x');
    await fs.writeFile(path.join(root, 'deep', 'not-a-note.txt'), 'x');
    await fs.writeFile(path.join(root, '.notekernel', 'inside.md'), 'x');
    expect(await until(['top.md', 'deep/er/low.md'])).toEqual([]);
    await sleep(200);
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
    await sleep(200);
    await fs.writeFile(path.join(root, 'moved', 'sub', 'later.md'), 'x');
    expect(await until(['moved/sub/later.md'])).toEqual([]);
  });

  it('reports nothing once stopped', async () => {
    await stop();
    await fs.writeFile(path.join(root, 'after.md'), 'x');
    await sleep(400);
    expect(seen.has('after.md')).toBe(false);
  });
});
