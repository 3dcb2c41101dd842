/**
 * Runs before every test file: the global vault registry lives in a temp folder, never the
 * user's config folder. Spawned servers inherit it through the environment.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

if (!process.env.NOTEKERNEL_TEST_KEEP_CONFIG_DIR) {
  process.env.NOTEKERNEL_CONFIG_DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'nk-config-'));
}
