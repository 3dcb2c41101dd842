/** Runs the built CLI (or any command) to completion, as a user's shell would. */
import { spawn } from 'node:child_process';
import { assertBuilt, CLI } from './cli.js';

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: Record<string, string>;
  cwd?: string;
  input?: string;
}

export function runCli(args: string[], options: RunOptions = {}): Promise<CliRun> {
  assertBuilt();
  return runCommand(process.execPath, [CLI, ...args], options);
}

/** A command to completion: its exit code and everything it printed; `input` goes to its stdin. */
export function runCommand(command: string, args: string[], options: RunOptions = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      env: { ...process.env, ...options.env },
      ...(options.cwd ? { cwd: options.cwd } : {}),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}
