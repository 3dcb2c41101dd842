import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fileStateHash, xor53 } from '../../../toolkit/files/file-digest.js';
import { TEMP_PREFIX } from '../../../toolkit/files/atomic-write.js';
import { scanFiles, STATS_PER_FILE, type FileScan } from '../../../toolkit/files/file-scan.js';
import { removeDir, tempDir } from '../../support/temp.js';

const roots: string[] = [];
afterEach(async () => {
  await Promise.all(roots.splice(0).map(removeDir));
});

async function tree(files: Record<string, string>): Promise<string> {
  const root = await tempDir();
  roots.push(root);
  for (const [rel, text] of Object.entries(files)) {
    await fs.mkdir(path.dirname(path.join(root, rel)), { recursive: true });
    await fs.writeFile(path.join(root, rel), text);
  }
  return root;
}

/** What a scan says about each path, independent of order. */
function byPath(scan: FileScan): Map<string, number[]> {
  return new Map(
    scan.paths.map((rel, i) => [rel, [...scan.stats.subarray(i * STATS_PER_FILE, (i + 1) * STATS_PER_FILE)]]),
  );
}

describe('scanFiles', () => {
  it('gathers markdown and temp files with their stats, outside hidden folders and node_modules', async () => {
    const root = await tree({
      'general/a.md': 'alpha',
      'general/_description.md': 'type file',
      'general/notes.txt': 'not markdown',
      'projects/deep/b.MD': 'bravo!',
      [`general/${TEMP_PREFIX}999999-abc`]: 'half a write',
      '.flint-note/c.md': 'metadata folder',
      'node_modules/pkg/readme.md': 'dependency',
      'root.md': 'at the root',
    });
    await fs.symlink(path.join(root, 'general'), path.join(root, 'linked'));
    const scan = scanFiles(root);

    expect([...scan.paths].sort()).toEqual(
      ['general/.nk-tmp-999999-abc', 'general/a.md', 'projects/deep/b.MD', 'root.md'].sort(),
    );
    expect(scan.temps).toEqual([`general/${TEMP_PREFIX}999999-abc`]);
    const stat = await fs.stat(path.join(root, 'projects/deep/b.MD'));
    expect(byPath(scan).get('projects/deep/b.MD')).toEqual([
      6,
      stat.mtimeMs,
      stat.birthtimeMs,
      fileStateHash('projects/deep/b.MD', 6, stat.mtimeMs),
    ]);
    // Folder sums cover note files only: the temp file and `_description.md` are not notes.
    const a = byPath(scan).get('general/a.md') as number[];
    expect(scan.folders.get('general')).toEqual({ digest: a[3], notes: 1 });
    expect(scan.folders.get('projects/deep')?.notes).toBe(1);
    expect(scan.folders.get('')?.notes).toBe(1);
    expect(scan.folders.has('projects')).toBe(false);
  });

  it('sums a folder as the XOR of its notes’ hashes', async () => {
    const root = await tree({ 't/a.md': 'a', 't/b.md': 'bb', 't/c.md': 'ccc' });
    const scan = scanFiles(root);
    const expected = scan.paths.reduce(
      (digest, _rel, i) => xor53(digest, scan.stats[i * STATS_PER_FILE + 3] as number),
      0,
    );
    expect(scan.folders.get('t')).toEqual({ digest: expected, notes: 3 });
  });
});
