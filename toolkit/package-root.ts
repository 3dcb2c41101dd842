/**
 * The installed package's root folder: the nearest folder above this module whose package.json
 * names notekernel. Files shipped beside the code (package.json, the parse worker, card-workflow
 * defaults) are found from here, so the sources, dist/ and the bundled CLI entry (which lives in
 * another folder than the modules it contains) all resolve them alike.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

export function packageRoot(): string {
  if (cached) return cached;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (
      fs.existsSync(manifest) &&
      (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name?: string }).name === 'notekernel'
    )
      return (cached = dir);
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('notekernel: cannot find its own package.json above its code');
    dir = parent;
  }
}
