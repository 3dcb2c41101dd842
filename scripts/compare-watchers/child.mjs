// node child.mjs <kind> <root>: watches root recursively, prints "ready <ms>" then "ev <relpath>" per event
import fs from 'node:fs';
import path from 'node:path';
const [kind, root] = process.argv.slice(2);
const out = (line) => process.stdout.write(line + '\n');
const rel = (p) => path.relative(root, p).split(path.sep).join('/');
const start = performance.now();
if (kind === 'fs.watch') {
  const w = fs.watch(root, { recursive: true }, (_e, name) => {
    if (name) out('ev ' + name.toString().split(path.sep).join('/'));
  });
  w.on('error', (err) => out('err ' + err.message));
  out('ready ' + (performance.now() - start).toFixed(1));
} else if (kind === 'parcel') {
  const watcher = (await import('@parcel/watcher')).default;
  await watcher.subscribe(
    root,
    (err, events) => {
      if (err) out('err ' + err.message);
      for (const e of events) out('ev ' + rel(e.path));
    },
    { ignore: ['.git', '.notekernel'] },
  );
  out('ready ' + (performance.now() - start).toFixed(1));
} else if (kind === 'chokidar') {
  const { watch } = await import('chokidar');
  const w = watch(root, { ignoreInitial: true, ignored: (p) => p.includes('/.git') });
  for (const ev of ['add', 'change', 'unlink', 'addDir', 'unlinkDir']) w.on(ev, (p) => out('ev ' + rel(p)));
  w.on('error', (err) => out('err ' + err.message));
  w.on('ready', () => out('ready ' + (performance.now() - start).toFixed(1)));
}
