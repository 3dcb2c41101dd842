/**
 * The history cache on disk (timestamp-cache.ts): what is saved loads back the same; the first
 * few lookups of a loaded cache search its flat strings (no maps built) and give what the maps
 * give; a damaged cache is refused whole.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  headBlobOf,
  loadCache,
  saveCache,
  timesOf,
  type TimestampState,
} from '../../../backends/markdown-git/git/timestamp-cache.js';
import type { GitLocation } from '../../../backends/markdown-git/git/git-location.js';
import { removeDir, tempDir } from '../../support/temp.js';

let dir: string;
let file: string;
let location: GitLocation;

beforeEach(async () => {
  dir = await tempDir('nk-ts-cache-');
  file = path.join(dir, '.notekernel', 'git-timestamps.json');
  location = { workTree: dir, gitdir: path.join(dir, '.git'), commondir: path.join(dir, '.git'), prefix: [] };
});

afterEach(async () => {
  await removeDir(dir);
});

const oid = (n: number) => n.toString(16).padStart(40, '0');

function state(): TimestampState {
  // Ids and paths that contain one another, so a lookup must match whole lines.
  const ids = ['id__Aaaaaa', 'id__Aaaaa', 'x', 'id__Bbbbbb', 'id__Aaaaaab'];
  const times = new Map(ids.map((id, i) => [id, [1000 + i, 2000 + i] as [number, number]]));
  const paths = ['a id__Aaaaaa.md', 'org/a id__Aaaaaa.md', 'b.md', 'archive/b.md', 'é ü id__Bbbbbb.md'];
  const headBlobs = new Map(paths.map((p, i) => [p, oid(i + 1)]));
  return { head: oid(99), times, commits: new Set([oid(7), oid(8)]), headBlobs };
}

describe('git timestamp cache', () => {
  it('loads what was saved; single lookups before the maps exist answer as the maps do', async () => {
    const saved = state();
    await saveCache(file, location, saved);
    const probes = [...saved.times.keys(), 'id__Aaaa', 'aaaaa', '', 'id__Aaaaaa\nid__Aaaaa'];
    const paths = [...saved.headBlobs.keys(), 'a.md', 'org', 'b'];
    // A freshly loaded cache per lookup: each is answered from the flat strings.
    const fresh = () => loadCache(file, location) as TimestampState;
    const found = probes.map((id) => timesOf(fresh(), id));
    const blobs = paths.map((p) => headBlobOf(fresh(), p));
    const searched = fresh();
    const mapped = loadCache(file, location) as TimestampState;
    expect(found).toEqual(probes.map((id) => mapped.times.get(id)));
    expect(blobs).toEqual(paths.map((p) => mapped.headBlobs.get(p)));
    expect(found).toEqual(probes.map((id) => saved.times.get(id)));
    expect(blobs).toEqual(paths.map((p) => saved.headBlobs.get(p)));
    expect(searched.head).toBe(saved.head);
    expect([...searched.commits]).toEqual([...saved.commits]);
    // Past the first few lookups the maps are built and used.
    for (let i = 0; i < 40; i++) expect(timesOf(searched, 'id__Bbbbbb')).toEqual([1003, 2003]);
  });

  it('an empty history loads as empty', async () => {
    await saveCache(file, location, { head: oid(1), times: new Map(), commits: new Set(), headBlobs: new Map() });
    const loaded = loadCache(file, location) as TimestampState;
    expect(timesOf(loaded, 'id__Aaaaaa')).toBeUndefined();
    expect(headBlobOf(loaded, 'a.md')).toBeUndefined();
    expect(loaded.times.size).toBe(0);
    expect(loaded.headBlobs.size).toBe(0);
  });

  it('refuses a damaged cache, or one from another repository', async () => {
    await saveCache(file, location, state());
    const good = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    const damaged: Array<Record<string, unknown>> = [
      { ...good, created: (good.created as number[]).slice(1) },
      { ...good, blobs: (good.blobs as string).slice(40) },
      { ...good, commits: `${good.commits as string}abc` },
      { ...good, ids: 7 },
      { ...good, gitdir: '/elsewhere/.git' },
    ];
    for (const bad of damaged) {
      fs.writeFileSync(file, JSON.stringify(bad));
      expect(loadCache(file, location)).toBeUndefined();
    }
    fs.writeFileSync(file, '{ not json');
    expect(loadCache(file, location)).toBeUndefined();
  });
});
