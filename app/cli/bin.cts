#!/usr/bin/env node
/**
 * The `notekernel` command. Loading ~400 modules is most of a short command's time and of a
 * served vault's first answer, so when `npm run build` has produced the bundled CLI (one file)
 * and V8's code cache for it, this runs that: no module resolution, no parsing, no compiling.
 * Otherwise (or with NOTEKERNEL_NO_BUNDLE=1) it runs the modules as built. Decisions 011, 014.
 *
 * CommonJS on purpose: an ES module entry starts Node's ES module loader first (~10 ms), and that
 * loader's file reads start libuv's thread pool before the first line here could size it.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';

// Batched writes (a rename's 200 link rewrites, a batch create) fsync many files at once; with
// the default 4 threads each journal commit takes 4 of them, with 64 a handful of commits take all
// (200 fsyncs: ~40 ms → ~10 ms here). A value the user set wins.
process.env.UV_THREADPOOL_SIZE ??= '64';

const bundle = path.join(__dirname, 'run.bundle.cjs');
const codeCache = `${bundle}.v8cache`;

if (process.env.NOTEKERNEL_NO_BUNDLE !== '1' && fs.existsSync(bundle)) runBundle();
else void import('./run.js');

function runBundle(): void {
  // The build guarantees ASCII: latin1 gives V8 a one-byte string without a UTF-8 decode.
  const source = fs.readFileSync(bundle, 'latin1').replace(/^#!.*/, '');
  let cachedData: Buffer | undefined;
  try {
    cachedData = fs.readFileSync(codeCache);
  } catch {
    // no cache yet: compiled as usual
  }
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: bundle,
    ...(cachedData ? { cachedData } : {}),
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  // The build writes the cache after a run, so it holds the functions start-up compiled too.
  if (process.env.NOTEKERNEL_WRITE_CODE_CACHE === '1') process.once('exit', () => fs.writeFileSync(codeCache, script.createCachedData()));
  const module = { exports: {} };
  const run = script.runInThisContext() as (...args: unknown[]) => void;
  run(module.exports, createRequire(bundle), module, bundle, path.dirname(bundle));
}
