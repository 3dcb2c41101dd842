/** Paths to the built CLI, for tests that spawn it as a user would. */
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import fs from 'node:fs';

const here = path.dirname(fileURLToPath(import.meta.url));
// Works from test/support (vitest, sources) and dist/test/support (built benchmarks).
export const REPO_ROOT = [path.resolve(here, '../..'), path.resolve(here, '../../..')].find((dir) =>
  fs.existsSync(path.join(dir, 'package.json')),
) as string;
export const CLI = path.join(REPO_ROOT, 'dist', 'app', 'cli', 'bin.cjs');

export function assertBuilt(): void {
  if (!fs.existsSync(CLI))
    throw new Error(`The CLI is not built (${CLI} missing): run npm run build first (npm test does).`);
}
