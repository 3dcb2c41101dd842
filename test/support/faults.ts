/**
 * Faults made for real, not injected: a small tmpfs filled to its last byte, and an unprivileged
 * process for permission errors. Root reads and writes whatever the modes say, so as root the
 * server runs with every capability dropped (setpriv): still uid 0, the owner of the test's files
 * and of a checkout in a private folder, but held to the modes like any user. Where the machine
 * allows neither (no root to mount, no setpriv), the tests that need them skip and say why.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { assertBuilt, CLI } from './cli.js';
import { runCommand, type CliRun } from './run-cli.js';
import { connectCommand, type StdioSession } from './mcp.js';

const isRoot = process.getuid?.() === 0;
const NO_CAPABILITIES = ['setpriv', '--bounding-set=-all', '--inh-caps=-all', '--ambient-caps=-all'];

function works(command: string, args: string[]): boolean {
  try {
    execFileSync(command, args, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Why permission tests cannot run here, or undefined when they can (root without capabilities, or this non-root user). */
export const noUnprivilegedUser: string | undefined = !isRoot
  ? undefined
  : works(NO_CAPABILITIES[0] as string, [...NO_CAPABILITIES.slice(1), 'true'])
    ? undefined
    : 'running as root without setpriv: no way to drop the capabilities that ignore file modes';

/** The command line run held to the file modes. */
function unprivileged(command: string[]): string[] {
  return isRoot ? [...NO_CAPABILITIES, ...command] : command;
}

/** `notekernel serve` over stdio as the unprivileged user, through the SDK's client. */
export async function connectUnprivileged(args: string[], env: Record<string, string>): Promise<StdioSession> {
  assertBuilt();
  const [command, ...rest] = unprivileged([process.execPath, CLI, ...args]);
  return connectCommand(command as string, rest, env, { name: 'notekernel-e2e-faults' });
}

/** The built CLI run to completion as the unprivileged user. */
export function runCliUnprivileged(args: string[], env: Record<string, string>): Promise<CliRun> {
  assertBuilt();
  const [command, ...rest] = unprivileged([process.execPath, CLI, ...args]);
  return runCommand(command as string, rest, { env });
}

export interface SmallDisk {
  dir: string;
  /** Writes a filler file until the disk has not one byte left. */
  fill(): void;
  /** Removes the filler. */
  free(): void;
  unmount(): void;
}

/** Why a small disk cannot be mounted here, or undefined when it can. */
export const noSmallDisk: string | undefined = isRoot ? undefined : 'not root: no tmpfs can be mounted to fill';

/** A tmpfs of `megabytes` mounted at `dir` (created). */
export function mountSmallDisk(dir: string, megabytes: number): SmallDisk {
  fs.mkdirSync(dir, { recursive: true });
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${megabytes}m,mode=0777`, 'tmpfs', dir]);
  const filler = path.join(dir, 'filler');
  return {
    dir,
    fill() {
      const fd = fs.openSync(filler, 'a');
      const block = Buffer.alloc(4096);
      try {
        for (;;) fs.writeSync(fd, block);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
      } finally {
        fs.closeSync(fd);
      }
      // The last partial page, byte by byte.
      const tail = fs.openSync(filler, 'a');
      try {
        for (;;) fs.writeSync(tail, Buffer.alloc(1));
      } catch {
        // full
      } finally {
        fs.closeSync(tail);
      }
    },
    free() {
      fs.rmSync(filler, { force: true });
    },
    unmount() {
      execFileSync('umount', ['-l', dir]);
    },
  };
}
