/**
 * Opens better-sqlite3 databases with the native addon named by its path. The default lookup
 * (the `bindings` package) probes a dozen candidate paths and reads a stack trace on first use;
 * and the bundled CLI carries better-sqlite3's JavaScript, not the addon, which stays in the
 * package where npm built it. Any other layout (a debug build, a prebuilt binary elsewhere)
 * falls back to the default lookup.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import Database from 'better-sqlite3';

let addon: string | null | undefined;

function nativeBinding(): string | null {
  if (addon !== undefined) return addon;
  try {
    const root = path.dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json'));
    const built = path.join(root, 'build', 'Release', 'better_sqlite3.node');
    addon = fs.existsSync(built) ? built : null;
  } catch {
    addon = null;
  }
  return addon;
}

/** Where better-sqlite3's JavaScript and addon are, for a worker thread that opens its own connection. */
export function driverLocation(): { module: string; binding: string | null } {
  return { module: createRequire(import.meta.url).resolve('better-sqlite3'), binding: nativeBinding() };
}

export function openDatabase(file: string, options: Database.Options = {}): Database.Database {
  const binding = nativeBinding();
  return new Database(file, binding ? { ...options, nativeBinding: binding } : options);
}
