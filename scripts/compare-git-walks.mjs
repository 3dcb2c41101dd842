// Decision 007: per-entry created/updated on the bench's git fixture (10,000 files × 2,000 commits,
// built by `BENCH_ONLY=git npm run bench`), three ways in one process: the hand-written walk,
// isomorphic-git (git.log + readTree with a shared cache), one `git log --name-status` child.
// `npm run build && RUNS=3 node scripts/compare-git-walks.mjs`
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import git from 'isomorphic-git';
import { walkHistory } from '../dist/backends/markdown-git/git/history-walk.js';
import { GitObjectReader } from '../dist/backends/markdown-git/git/object-reader.js';
import { idFromFilename } from '../dist/backends/markdown-git/entry-name.js';
const dir = path.resolve(process.env.BENCH_DIR ?? '.bench-data', 'git-memory-10000-2000');
const idOf = (p) => (p.endsWith('.md') ? idFromFilename(path.posix.basename(p)) : undefined);
const head = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: dir, encoding: 'utf8' }).stdout.trim();

function handWritten() {
  const reader = new GitObjectReader(path.join(dir, '.git'));
  return walkHistory({ reader, head, prefix: [], idOf }).times;
}

async function isoGit() {
  const cache = {};
  const times = new Map();
  const addSeen = new Set();
  const commits = await git.log({ fs, dir, ref: 'HEAD', cache });
  const readTree = async (oid) => (oid ? (await git.readTree({ fs, dir, oid, cache })).tree : []);
  async function diff(before, after, prefix, out) {
    if (before === after) return;
    const [a, b] = await Promise.all([readTree(before), readTree(after)]);
    const old = new Map(a.map((e) => [e.path, e]));
    for (const e of b) {
      const o = old.get(e.path);
      if (o && o.oid === e.oid) continue;
      const p = prefix + e.path;
      if (e.type === 'tree') await diff(o?.type === 'tree' ? o.oid : null, e.oid, p + '/', out);
      else if (e.type === 'blob') out.set(p, !o);
    }
  }
  const parentTree = new Map(); // commit oid → tree oid, from the log itself
  for (const c of commits) parentTree.set(c.oid, c.commit.tree);
  for (const c of commits) {
    const out = new Map();
    const parent = c.commit.parent[0];
    const ptree = parent
      ? (parentTree.get(parent) ?? (await git.readCommit({ fs, dir, oid: parent, cache })).commit.tree)
      : null;
    await diff(ptree, c.commit.tree, '', out);
    const t = c.commit.author.timestamp;
    for (const [p, added] of out) {
      const id = idOf(p);
      if (!id) continue;
      const entry = times.get(id);
      if (!entry) {
        times.set(id, [t, t]);
        if (added) addSeen.add(id);
        continue;
      }
      if (added) {
        entry[0] = t;
        addSeen.add(id);
      } else if (!addSeen.has(id)) entry[0] = t;
    }
  }
  return times;
}

function gitLog() {
  const r = spawnSync('git', ['log', '--no-renames', '--name-status', '--format=%x00%at', 'HEAD'], {
    cwd: dir,
    maxBuffer: 1 << 30,
    encoding: 'utf8',
  });
  const times = new Map();
  const addSeen = new Set();
  for (const block of r.stdout.split('\0')) {
    if (!block) continue;
    const nl = block.indexOf('\n');
    const t = Number(block.slice(0, nl));
    for (const line of block.slice(nl + 1).split('\n')) {
      if (!line) continue;
      const status = line[0];
      if (status === 'D') continue;
      const id = idOf(line.slice(line.indexOf('\t') + 1));
      if (!id) continue;
      const added = status === 'A';
      const entry = times.get(id);
      if (!entry) {
        times.set(id, [t, t]);
        if (added) addSeen.add(id);
        continue;
      }
      if (added) {
        entry[0] = t;
        addSeen.add(id);
      } else if (!addSeen.has(id)) entry[0] = t;
    }
  }
  return times;
}

const same = (a, b) => a.size === b.size && [...a].every(([k, v]) => b.get(k)?.[0] === v[0] && b.get(k)?.[1] === v[1]);
const res = { hand: [], iso: [], log: [] };
let ref;
for (let i = 0; i < Number(process.env.RUNS ?? 3); i++) {
  let s = performance.now();
  ref = handWritten();
  res.hand.push(performance.now() - s);
  s = performance.now();
  const iso = await isoGit();
  res.iso.push(performance.now() - s);
  s = performance.now();
  const log = gitLog();
  res.log.push(performance.now() - s);
  console.log(
    `run ${i}: hand ${res.hand.at(-1).toFixed(0)} ms, isomorphic-git+cache ${res.iso.at(-1).toFixed(0)} ms (same times: ${same(ref, iso)}), git log ${res.log.at(-1).toFixed(0)} ms (same: ${same(ref, log)}); entries ${ref.size}`,
  );
}
const med = (a) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)].toFixed(0);
if (res.hand.length)
  console.log(
    `median: hand-written ${med(res.hand)} ms | isomorphic-git log+readTree with cache ${med(res.iso)} ms | git log --name-status child ${med(res.log)} ms`,
  );

// Where isomorphic-git's time goes (PARTS=1): the log alone, a root tree read, a git.walk diff.
if (process.env.PARTS === '1') {
  const cache = {};
  let s = performance.now();
  const commits = await git.log({ fs, dir, ref: 'HEAD', cache });
  console.log(`git.log with cache: ${commits.length} commits in ${(performance.now() - s).toFixed(0)} ms`);
  s = performance.now();
  for (const c of commits.slice(0, 200)) await git.readTree({ fs, dir, oid: c.commit.tree, cache });
  console.log(`readTree of a root tree: ${((performance.now() - s) / 200).toFixed(2)} ms each (200 commits)`);
  s = performance.now();
  await git.readTree({ fs, dir, oid: commits[0].commit.tree, cache });
  console.log(`the same root tree again (cached): ${(performance.now() - s).toFixed(2)} ms`);
  s = performance.now();
  await git.walk({
    fs,
    dir,
    cache,
    trees: [git.TREE({ ref: commits[1].oid }), git.TREE({ ref: commits[0].oid })],
    map: async (p, [a, b]) => {
      if (p === '.') return true;
      const [oa, ob] = await Promise.all([a?.oid(), b?.oid()]);
      return oa === ob ? null : true;
    },
  });
  console.log(`git.walk TREE × TREE for one commit and its parent: ${(performance.now() - s).toFixed(0)} ms`);
}
