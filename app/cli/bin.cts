#!/usr/bin/env node
/**
 * The `notekernel` command. Loading ~400 modules one by one is most of a short command's time and
 * of a served vault's first answer, so `npm run build` bundles them into CommonJS chunks with source
 * maps (bundle/run.cjs and the chunks it loads on demand), which this requires. Without the bundle, or with
 * NOTEKERNEL_NO_BUNDLE=1, it imports the modules as built. Decisions 011, 014.
 *
 * CommonJS on purpose: an ES module entry starts Node's ES module loader before its first line
 * (~10 ms), and a CommonJS file requires the CommonJS bundle directly.
 */
import fs from 'node:fs';
import nodeModule from 'node:module';
import path from 'node:path';

// Node 22.1+ keeps the compiled bundle on disk between runs (in the OS temp folder, per Node
// version); Node 20 has no such cache and compiles the bundle at every start.
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();

const bundle = path.join(__dirname, 'bundle', 'run.cjs');

if (process.env.NOTEKERNEL_NO_BUNDLE !== '1' && fs.existsSync(bundle)) require(bundle);
else void import('./run.js');
