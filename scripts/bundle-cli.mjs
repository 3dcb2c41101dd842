// Bundles the built CLI (dist/kernel/cli/run.js) into one CommonJS file beside it and writes
// V8's code cache for it by running it once; bin.js prefers the pair (decision 011).
// better-sqlite3 stays outside: it loads a native addon.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { rolldown } from 'rolldown';

const dir = 'dist/kernel/cli';
const out = `${dir}/run.bundle.cjs`;
fs.rmSync(`${out}.v8cache`, { force: true });
const build = await rolldown({ input: `${dir}/run.js`, platform: 'node', external: ['better-sqlite3'], logLevel: 'warn' });
await build.write({ file: out, format: 'cjs', codeSplitting: false });
await build.close();
// A throwaway vault and config folder: the warm-up run must not touch the user's.
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'notekernel-bundle-'));
const warm = spawnSync(process.execPath, [`${dir}/bin.js`, 'tools', '--profile', 'flint', '--vault', scratch], {
  env: { ...process.env, NOTEKERNEL_WRITE_CODE_CACHE: '1', NOTEKERNEL_CONFIG_DIR: path.join(scratch, '.config') },
  stdio: ['ignore', 'ignore', 'inherit'],
});
fs.rmSync(scratch, { recursive: true, force: true });
if (warm.status !== 0 || !fs.existsSync(`${out}.v8cache`)) {
  console.error('bundle-cli: the bundled CLI did not run; removing it so bin.js uses the modules');
  fs.rmSync(out, { force: true });
  fs.rmSync(`${out}.v8cache`, { force: true });
  process.exit(1);
}
console.error(`bundle-cli: ${out} (${(fs.statSync(out).size / 1e6).toFixed(1)} MB) + code cache (${(fs.statSync(`${out}.v8cache`).size / 1e6).toFixed(1)} MB)`);
