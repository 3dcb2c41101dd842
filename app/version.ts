import fs from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../toolkit/package-root.js';

function readVersion(): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(packageRoot(), 'package.json'), 'utf8')) as { version?: string };
  return pkg.version ?? '0.0.0';
}

export const VERSION = readVersion();
