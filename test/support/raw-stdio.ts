/** The built `notekernel serve` over stdio with raw lines in and out, for what an SDK client never sends. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { assertBuilt, CLI } from './cli.js';
import { INITIALIZE } from './raw-http.js';

export interface RawFrame {
  jsonrpc?: unknown;
  id?: unknown;
  result?: unknown;
  error?: { code: number; message: string; data?: Record<string, unknown> };
}

export interface RawStdioServer {
  child: ChildProcessWithoutNullStreams;
  /** Every line written to stdout so far, as written. */
  lines: string[];
  stderr(): string;
  write(line: string): void;
  /** Waits for the frame whose id is `id` (compared as JSON); the frames before it stay in `lines`. */
  answerTo(id: unknown, timeoutMs?: number): Promise<RawFrame>;
  stop(): Promise<void>;
}

export async function startRawStdio(args: string[], env: Record<string, string> = {}): Promise<RawStdioServer> {
  assertBuilt();
  const child = spawn(process.execPath, [CLI, 'serve', ...args], {
    env: { ...process.env, NOTEKERNEL_LOG_LEVEL: 'info', ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let stderr = '';
  let buffered = '';
  let wake: (() => void) | undefined;
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    for (let i = buffered.indexOf('\n'); i >= 0; i = buffered.indexOf('\n')) {
      lines.push(buffered.slice(0, i));
      buffered = buffered.slice(i + 1);
    }
    wake?.();
  });
  child.once('exit', () => wake?.());
  const server: RawStdioServer = {
    child,
    lines,
    stderr: () => stderr,
    write: (line) => void child.stdin.write(`${line}\n`),
    async answerTo(id, timeoutMs = 10_000) {
      const wanted = JSON.stringify(id);
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const line = lines.find((l) => JSON.stringify(parseOrNull(l)?.id) === wanted);
        if (line) return JSON.parse(line) as RawFrame;
        if (child.exitCode !== null)
          throw new Error(`the server exited (${child.exitCode}) before answering ${wanted}:\n${stderr}`);
        const left = deadline - Date.now();
        if (left <= 0)
          throw new Error(`no answer to ${wanted} within ${timeoutMs} ms; stdout so far:\n${lines.join('\n')}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    },
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.stdin.end();
      }),
  };
  server.write(JSON.stringify(INITIALIZE));
  await server.answerTo(INITIALIZE.id, 20_000);
  server.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  return server;
}

function parseOrNull(line: string): RawFrame | null {
  try {
    return JSON.parse(line) as RawFrame;
  } catch {
    return null;
  }
}
