/**
 * `npm test` builds only when dist/ is older than a source: `npm install` has just built it
 * (prepare), so `npm install && npm test` builds once instead of twice. The bundle's entry map
 * is among the build's last outputs, so its time is the build's time.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const SOURCES = [
  'kernel',
  'toolkit',
  'plugins',
  'backends',
  'profiles',
  'app',
  'test/support',
  'test/bench',
  'scripts',
  'package.json',
  'tsconfig.json',
  'tsconfig.build.json',
];
const BUILT = 'dist/app/cli/bundle/run.cjs.map';

function newest(entry) {
  const stat = fs.statSync(entry, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = 0;
  for (const child of fs.readdirSync(entry)) {
    if (child === 'node_modules' || child.startsWith('.')) continue;
    latest = Math.max(latest, newest(path.join(entry, child)));
  }
  return latest;
}

const built = fs.statSync(BUILT, { throwIfNoEntry: false })?.mtimeMs ?? 0;
const source = Math.max(...SOURCES.map(newest));
if (built > source) {
  console.log('dist/ is up to date: no build');
} else {
  const run = spawnSync('npm', ['run', 'build'], { stdio: 'inherit', shell: process.platform === 'win32' });
  process.exit(run.status ?? 1);
}
