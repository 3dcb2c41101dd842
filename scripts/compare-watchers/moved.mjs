// @parcel/watcher 2.6 on Linux: a folder moved into the watched tree is watched, its subfolders
// are not (decision 016). `node moved.mjs` where @parcel/watcher is installed.
import os from 'node:os';
import fs from 'node:fs';
import path from 'node:path';
import watcher from '@parcel/watcher';
const base = fs.mkdtempSync(path.join(os.tmpdir(), 'pw-'));
const root = path.join(base, 'root');
fs.mkdirSync(root);
const seen = [];
const sub = await watcher.subscribe(root, (err, evs) => {
  for (const e of evs) seen.push(`${e.type} ${path.relative(root, e.path)}`);
});
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
fs.mkdirSync(path.join(base, 'out/sub'), { recursive: true });
fs.writeFileSync(path.join(base, 'out/sub/a.md'), 'x');
fs.renameSync(path.join(base, 'out'), path.join(root, 'moved'));
await sleep(300);
fs.writeFileSync(path.join(root, 'moved/top-later.md'), 'x');
fs.writeFileSync(path.join(root, 'moved/sub/later.md'), 'x');
fs.mkdirSync(path.join(root, 'made/inner'), { recursive: true });
await sleep(300);
fs.writeFileSync(path.join(root, 'made/inner/later.md'), 'x');
await sleep(500);
console.log(seen.join('\n'));
await sub.unsubscribe();
