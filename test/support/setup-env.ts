/**
 * Runs before every test file: the global vault registry lives in a temp folder, never the
 * user's config folder. Spawned servers inherit it through the environment. After the file's
 * last test that folder and every tempDir() the file made are removed (after-hooks run in
 * reverse order, so the file's own hooks have closed its servers by then).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { removeTracked, track } from './temp-registry.js';

if (!process.env.NOTEKERNEL_TEST_KEEP_CONFIG_DIR) {
  const dir = track(fs.mkdtempSync(path.join(os.tmpdir(), 'nk-config-')));
  process.env.NOTEKERNEL_CONFIG_DIR = dir;
  // flint-note's own registry (read once into ours) is looked for under XDG_CONFIG_HOME first:
  // never the user's either.
  process.env.XDG_CONFIG_HOME = path.join(dir, 'xdg');
  // Also when this file is evaluated where no test's after-hooks run.
  process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
}

// Every tool answer is checked against its tool's output schema (kernel/registry.ts), in this
// process and in every server a test spawns: a schema that lies to clients fails the test.
process.env.NOTEKERNEL_CHECK_TOOL_OUTPUTS = '1';

afterAll(removeTracked);
