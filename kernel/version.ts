import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

function readVersion(): string {
  // Built code lives one folder deeper (dist/kernel) than the sources (kernel).
  for (const candidate of ['../package.json', '../../package.json']) {
    try {
      const pkg = require(candidate) as { name?: string; version?: string };
      if (pkg.name === 'notekernel' && pkg.version) return pkg.version;
    } catch {
      // try the next location
    }
  }
  return '0.0.0';
}

export const VERSION = readVersion();
