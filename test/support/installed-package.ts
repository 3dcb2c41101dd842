/**
 * The package as users get it: `npm pack`, then `npm install -g --prefix <temp>` of the tarball.
 * One deviation, on purpose: better-sqlite3 compiles from source on this machine (~2 min, no
 * prebuilt binary reachable), so the install skips install scripts and the repository's own
 * compiled addon (same version, checked) is copied in. Everything else is the installed tree.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT, assertBuilt } from './cli.js';

const run = promisify(execFile);
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

export interface InstalledPackage {
  /** The `notekernel` command on the prefix's bin folder. */
  bin: string;
  binDir: string;
  /** The installed package folder (…/lib/node_modules/notekernel). */
  root: string;
  tarball: { path: string; size: number; files: string[] };
  installMs: number;
}

export async function packAndInstall(dir: string): Promise<InstalledPackage> {
  assertBuilt();
  // --ignore-scripts: `prepare` would rebuild dist/, which the test run has just built.
  const packed = await run(NPM, ['pack', '--json', '--ignore-scripts', '--pack-destination', dir], {
    cwd: REPO_ROOT,
    maxBuffer: 64 << 20,
  });
  const [info] = JSON.parse(packed.stdout) as Array<{ filename: string; size: number; files: Array<{ path: string }> }>;
  if (!info) throw new Error('npm pack printed no result');
  const tarball = path.join(dir, info.filename);
  const prefix = path.join(dir, 'prefix');
  const started = Date.now();
  // --prefer-offline: the npm cache answers when it can (no network needed then); CI reaches the registry.
  await run(
    NPM,
    ['install', '-g', '--prefix', prefix, tarball, '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund'],
    {
      cwd: dir,
      maxBuffer: 64 << 20,
    },
  );
  const installMs = Date.now() - started;
  const root = path.join(prefix, 'lib', 'node_modules', 'notekernel');
  await copyNativeAddon(root);
  const binDir = path.join(prefix, 'bin');
  return {
    bin: path.join(binDir, 'notekernel'),
    binDir,
    root,
    tarball: { path: tarball, size: info.size, files: info.files.map((f) => f.path) },
    installMs,
  };
}

async function copyNativeAddon(installed: string): Promise<void> {
  const from = path.join(REPO_ROOT, 'node_modules', 'better-sqlite3');
  const to = path.join(installed, 'node_modules', 'better-sqlite3');
  const version = async (dir: string) =>
    (JSON.parse(await fs.readFile(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version;
  const [ours, theirs] = await Promise.all([version(from), version(to)]);
  if (ours !== theirs)
    throw new Error(`better-sqlite3 ${theirs} installed, ${ours} built here: cannot reuse the compiled addon`);
  await fs.mkdir(path.join(to, 'build', 'Release'), { recursive: true });
  await fs.copyFile(
    path.join(from, 'build', 'Release', 'better_sqlite3.node'),
    path.join(to, 'build', 'Release', 'better_sqlite3.node'),
  );
}
