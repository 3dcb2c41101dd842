// Compares recursive watchers on a 10,000-file tree (decision 016): start-up, idle CPU, one-write
// latency, a 1,000-file burst, a folder renamed, a checkout-like swap. Not a dependency of the
// project: copy this folder somewhere, `npm install @parcel/watcher chokidar@4` there, then
// `FILES=10000 IDLE=20 SETTLE=1500 node bench.mjs fs.watch parcel chokidar`.
import { spawn } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import fs from 'node:fs';
import path from 'node:path';
const kinds = process.argv.slice(2);
const here = path.dirname(fileURLToPath(import.meta.url));
const base = path.join(os.tmpdir(), 'nk-watchers');
const FILES = Number(process.env.FILES ?? 10000);
const IDLE = Number(process.env.IDLE ?? 10);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const cpu = (pid) => {
  const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (+f[11] + +f[12]) * 10;
};
const folders = ['', 'archive/', ...Array.from({ length: 6 }, (_, i) => `orgs/org-0${i}/`)];
function makeTree(root) {
  fs.rmSync(root, { recursive: true, force: true });
  for (const f of folders) fs.mkdirSync(path.join(root, f), { recursive: true });
  for (let i = 0; i < FILES; i++)
    fs.writeFileSync(path.join(root, `${folders[i % folders.length]}entry-${i}.md`), `# Entry ${i}\n\nbody\n`);
}
async function run(kind) {
  const root = path.join(base, kind.replace(/\W/g, ''));
  makeTree(root);
  const t0 = performance.now();
  const child = spawn(process.execPath, [path.join(here, 'child.mjs'), kind, root], {
    stdio: ['ignore', 'pipe', 'inherit'],
    cwd: here,
  });
  const seen = new Set();
  const waiters = new Map();
  let errors = 0;
  let ready;
  const readyP = new Promise((r) => (ready = r));
  createInterface({ input: child.stdout }).on('line', (line) => {
    if (line.startsWith('ready ')) ready(performance.now() - t0);
    else if (line.startsWith('ev ')) {
      const p = line.slice(3);
      seen.add(p);
      waiters.get(p)?.();
      waiters.delete(p);
    } else if (line.startsWith('err')) errors++;
  });
  const setupMs = await readyP;
  const cpuReady = cpu(child.pid);
  await sleep(500);
  const cpu0 = cpu(child.pid);
  await sleep(IDLE * 1000);
  const idleCpu = cpu(child.pid) - cpu0;
  const rss = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'))[1]) / 1024;
  // latency: one write, time to its event
  const lat = [];
  for (let i = 0; i < 15; i++) {
    const p = `${folders[i % folders.length]}latency-${i}.md`;
    const got = new Promise((r) => waiters.set(p, r));
    const s = performance.now();
    fs.writeFileSync(path.join(root, p), 'x');
    await Promise.race([got, sleep(3000)]);
    lat.push(performance.now() - s);
    await sleep(50);
  }
  lat.sort((a, b) => a - b);
  const settle = async () => {
    let n = -1;
    while (n !== seen.size) {
      n = seen.size;
      await sleep(Number(process.env.SETTLE ?? 700));
    }
  };
  const check = (expected) => expected.filter((p) => seen.has(p)).length;
  const waitAll = async (expected, limit = 30000) => {
    const s = performance.now();
    while (check(expected) < expected.length && performance.now() - s < limit) await sleep(20);
    return performance.now() - s;
  };
  // burst: 1,000 new files across the existing folders
  seen.clear();
  const burst = Array.from({ length: 1000 }, (_, i) => `${folders[i % folders.length]}burst-${i}.md`);
  for (const p of burst) fs.writeFileSync(path.join(root, p), 'burst');
  const burstMs = await waitAll(burst);
  const burstSeen = check(burst);
  // a folder renamed, then a write inside it under its new name
  seen.clear();
  fs.renameSync(path.join(root, 'orgs/org-01'), path.join(root, 'orgs/org-91'));
  await sleep(300);
  const movedInto = 'orgs/org-91/written-after-rename.md';
  fs.writeFileSync(path.join(root, movedInto), 'x');
  await settle();
  const renameSeen = {
    folderOrFiles: [...seen].some(
      (p) => p.startsWith('orgs/org-91') || p === 'orgs/org-01' || p.startsWith('orgs/org-01/'),
    ),
    writeAfter: seen.has(movedInto),
  };
  // a git-checkout-like swap: 200 files changed, 200 removed, 200 added, a new folder with 50 files
  seen.clear();
  const files = fs
    .readdirSync(path.join(root, 'archive'))
    .filter((f) => f.startsWith('entry-'))
    .slice(0, 400)
    .map((f) => `archive/${f}`);
  const changed = files.slice(0, 200),
    removed = files.slice(200, 400);
  const added = Array.from({ length: 200 }, (_, i) => `orgs/org-02/checkout-${i}.md`);
  const newFolder = Array.from({ length: 50 }, (_, i) => `fresh/sub/new-${i}.md`);
  for (const p of changed) {
    const tmp = path.join(root, p + '.lock');
    fs.writeFileSync(tmp, 'changed');
    fs.renameSync(tmp, path.join(root, p));
  }
  for (const p of removed) fs.unlinkSync(path.join(root, p));
  for (const p of added) fs.writeFileSync(path.join(root, p), 'added');
  fs.mkdirSync(path.join(root, 'fresh/sub'), { recursive: true });
  for (const p of newFolder) fs.writeFileSync(path.join(root, p), 'new');
  const swapMs = await waitAll([...changed, ...removed, ...added, ...newFolder]);
  const swap = { changed: check(changed), removed: check(removed), added: check(added), newFolder: check(newFolder) };
  if (process.env.DEBUG)
    console.log(
      'fresh events:',
      [...seen]
        .filter((p) => p.startsWith('fresh'))
        .slice(0, 6)
        .join(', '),
      '| total fresh',
      [...seen].filter((p) => p.startsWith('fresh')).length,
    );
  const totalCpu = cpu(child.pid);
  child.kill();
  const fmt = (x) => x.toFixed(0);
  console.log(
    `${kind.padEnd(9)} ready ${fmt(setupMs)} ms (cpu ${cpuReady} ms), rss ${fmt(rss)} MB, idle cpu ${idleCpu} ms/${IDLE}s, latency p50 ${fmt(lat[7])} max ${fmt(lat[14])} ms | burst ${burstSeen}/1000 in ${fmt(burstMs)} ms | rename: seen ${renameSeen.folderOrFiles}, write after ${renameSeen.writeAfter} | swap changed ${swap.changed}/200 removed ${swap.removed}/200 added ${swap.added}/200 new folder ${swap.newFolder}/50 in ${fmt(swapMs)} ms | errors ${errors} | total cpu ${totalCpu} ms`,
  );
  fs.rmSync(root, { recursive: true, force: true });
}
for (const k of kinds) await run(k);
