/**
 * Runs untrusted read-only work (an agent's SQL, an agent's regex) in separate processes, each
 * with its own read-only connection to the index. A job past its time limit gets its process
 * killed and a `timeout` error; the server's own thread never waits on SQLite for it. Processes
 * are started on first use, reused, and stopped when idle so an idle server costs nothing.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';
import { BackendUnavailableError, NotekernelError, TimeoutError } from '../../kernel/errors.js';
import type { Logger } from '../../kernel/logger.js';
import { SANDBOX_SOURCE } from './sql-sandbox-source.js';

export type SandboxJob =
  | { kind: 'sql'; sql: string; params?: unknown; maxRows: number; maxBytes: number }
  | {
      kind: 'regex';
      source: string;
      flags: string;
      where: string;
      params: Record<string, unknown>;
      limit: number;
      offset: number;
      maxPerNote: number;
      snippetChars: number;
    };

/** A job's failure inside the sandbox, before it is mapped to a kernel error by the caller. */
export class SandboxFailure extends Error {
  constructor(
    readonly kind: 'refused' | 'sql' | 'regex' | 'too_large' | 'internal',
    message: string,
    readonly reason?: string,
  ) {
    super(message);
  }
}

export interface SandboxOptions {
  dbFile: string;
  logger: Logger;
  /** Jobs run in parallel up to this many processes; more wait their turn. */
  maxProcesses?: number;
  /**
   * Extra processes started when every process runs a job older than LONG_JOB_MS: runaway
   * queries (each up to its time limit) must not make every other query wait for them.
   */
  burstProcesses?: number;
  /** Each process is stopped past this resident size (sorts and temp tables are in memory), bytes. */
  maxRssBytes?: number;
  /** An idle process is stopped after this long. */
  idleMs?: number;
}

interface Slot {
  proc: ChildProcess;
  busy: boolean;
  /** When the job under way started (performance.now()). */
  since?: number;
  /** Stops the job under way with a timeout error, freeing the process. */
  preempt?: () => void;
  idle?: NodeJS.Timeout;
  settle?: (reply: Reply | Error) => void;
}

type Reply =
  | { id: number; ok: true; [key: string]: unknown }
  | { id: number; ok: false; kind: SandboxFailure['kind']; message: string; reason?: string };

const MAX_WAITING = 100;
/** A job running longer than this is "long": others get a burst process, or it is stopped for them. */
const LONG_JOB_MS = 250;
/** A long job older than this is stopped when a job has waited for a process this long. */
const PREEMPT_AFTER_MS = 2000;
const WAIT_BEFORE_PREEMPT_MS = 500;
const DEFAULT_MAX_RSS = 512 * 1024 * 1024;
// Regex flags beyond ours: V8 falls back to a linear-time engine on catastrophic backtracking.
const NODE_FLAGS = ['--max-old-space-size=512', '--enable-experimental-regexp-engine-on-excessive-backtracks'];
const DRIVER = createRequire(import.meta.url).resolve('better-sqlite3');

export class SqlSandbox {
  private readonly slots = new Set<Slot>();
  private readonly waiting: Array<(slot: Slot) => void> = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: SandboxOptions) {}

  /** Runs one job; `what` names it in the timeout message. */
  async run<T>(job: SandboxJob, timeoutMs: number, what: string): Promise<T> {
    if (this.closed) throw new BackendUnavailableError('The search index is closed.');
    const slot = await this.acquire();
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const stop = (message: string) => {
        clearTimeout(timer);
        slot.settle = undefined;
        slot.preempt = undefined;
        this.discard(slot);
        reject(new TimeoutError(message, { timeout_ms: timeoutMs }));
      };
      const timer = setTimeout(
        () => stop(`${what} ran past its ${timeoutMs} ms limit and was stopped; narrow it and try again.`),
        timeoutMs,
      );
      slot.since = performance.now();
      // Once every process runs a long job, a spare is started (spawn + open take ~0.3-1 s on a
      // loaded machine), so the next short query finds one ready.
      setTimeout(() => this.warmSpare(), LONG_JOB_MS + 10).unref();
      slot.preempt = () =>
        stop(
          `${what} ran ${Math.round(performance.now() - (slot.since ?? 0))} ms while other queries waited, and was stopped so they could run; narrow it and try again.`,
        );
      slot.settle = (reply) => {
        clearTimeout(timer);
        slot.settle = undefined;
        slot.preempt = undefined;
        this.release(slot);
        if (reply instanceof Error) return reject(reply);
        if (reply.ok) return resolve(reply as unknown as T);
        reject(new SandboxFailure(reply.kind, reply.message, reply.reason));
      };
      slot.proc.send({ ...job, id, deadlineMs: timeoutMs + 2000 });
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const slot of [...this.slots]) this.discard(slot);
    this.waiting.splice(0);
  }

  private acquire(): Promise<Slot> {
    for (const slot of [...this.slots]) {
      // A process that lost its channel (it crashed while idle) is replaced, never handed out.
      if (!slot.proc.connected) this.discard(slot);
      else if (!slot.busy) return Promise.resolve(this.claim(slot));
    }
    const max = this.options.maxProcesses ?? 2;
    if (this.slots.size < max) return Promise.resolve(this.claim(this.spawn()));
    const now = performance.now();
    const allLong = [...this.slots].every((slot) => slot.busy && now - (slot.since ?? now) > LONG_JOB_MS);
    if (allLong && this.slots.size < max + (this.options.burstProcesses ?? 2))
      return Promise.resolve(this.claim(this.spawn()));
    if (this.waiting.length >= MAX_WAITING) {
      return Promise.reject(
        new BackendUnavailableError(`Too many queries are waiting (${MAX_WAITING}); try again shortly.`),
      );
    }
    const waited = setTimeout(() => this.preemptOldest(), WAIT_BEFORE_PREEMPT_MS);
    waited.unref();
    return new Promise((resolve) =>
      this.waiting.push((slot) => {
        clearTimeout(waited);
        resolve(this.claim(slot));
      }),
    );
  }

  private warmSpare(): void {
    if (this.closed) return;
    const now = performance.now();
    const slots = [...this.slots];
    const allLong = slots.every((slot) => slot.busy && now - (slot.since ?? now) > LONG_JOB_MS);
    if (!allLong || this.slots.size >= (this.options.maxProcesses ?? 2) + (this.options.burstProcesses ?? 2)) return;
    const spare = this.spawn();
    spare.idle = setTimeout(() => this.discard(spare), this.options.idleMs ?? 30_000);
    spare.idle.unref();
  }

  /** A job waited: the longest-running job past PREEMPT_AFTER_MS is stopped to free its process. */
  private preemptOldest(): void {
    if (this.waiting.length === 0) return;
    const now = performance.now();
    const oldest = [...this.slots]
      .filter((slot) => slot.busy && slot.preempt && now - (slot.since ?? now) > PREEMPT_AFTER_MS)
      .sort((a, b) => (a.since ?? 0) - (b.since ?? 0))[0];
    if (oldest) oldest.preempt?.();
    else setTimeout(() => this.preemptOldest(), WAIT_BEFORE_PREEMPT_MS).unref();
  }

  private claim(slot: Slot): Slot {
    slot.busy = true;
    if (slot.idle) clearTimeout(slot.idle);
    return slot;
  }

  private release(slot: Slot): void {
    slot.busy = false;
    if (!this.slots.has(slot)) return this.handOver();
    const next = this.waiting.shift();
    if (next) return next(slot);
    slot.idle = setTimeout(() => this.discard(slot), this.options.idleMs ?? 30_000);
    slot.idle.unref();
  }

  private spawn(): Slot {
    const maxRss = String(this.options.maxRssBytes ?? DEFAULT_MAX_RSS);
    const proc = spawn(process.execPath, [...NODE_FLAGS, '-e', SANDBOX_SOURCE, DRIVER, this.options.dbFile, maxRss], {
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      serialization: 'advanced',
      // Our own flags only: NODE_OPTIONS of a test runner or debugger must not leak in.
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    const slot: Slot = { proc, busy: false };
    this.slots.add(slot);
    let stderr = '';
    proc.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-2000)));
    proc.on('message', (message: Reply | { fatal: string }) => {
      if ('fatal' in message)
        return slot.settle?.(new BackendUnavailableError(`The SQL sandbox could not open the index: ${message.fatal}`));
      slot.settle?.(message);
    });
    proc.on('exit', (code, signal) => {
      this.slots.delete(slot);
      if (!slot.settle) return this.handOver();
      // The watchdog's last words may still be in the pipe: read them before saying why.
      let done = false;
      const report = () => {
        if (done) return;
        done = true;
        if (stderr.includes('nk-sandbox: memory cap')) {
          const mb = Math.round((this.options.maxRssBytes ?? DEFAULT_MAX_RSS) / 1024 / 1024);
          return slot.settle?.(
            new SandboxFailure(
              'too_large',
              `the query needed more than ${mb} MB of memory (sorting or grouping too many rows) and was stopped; narrow it`,
            ),
          );
        }
        this.options.logger.warn({ code, signal, stderr }, 'search sandbox exited during a job');
        slot.settle?.(
          new NotekernelError('internal', `The search sandbox stopped unexpectedly (${signal ?? `exit ${code}`}).`),
        );
      };
      if (proc.stderr && !proc.stderr.readableEnded) proc.stderr.once('end', report);
      setTimeout(report, 200).unref();
    });
    proc.on('error', (err) => this.options.logger.error({ err }, 'search sandbox failed to start'));
    // An idle sandbox must not keep the server (or a test run) alive.
    proc.unref();
    proc.channel?.unref();
    (proc.stderr as Socket | null)?.unref();
    return slot;
  }

  /** A process went away: the next waiter, if any, gets a fresh one. */
  private handOver(): void {
    const next = this.waiting.shift();
    if (next && !this.closed) next(this.spawn());
  }

  private discard(slot: Slot): void {
    if (slot.idle) clearTimeout(slot.idle);
    this.slots.delete(slot);
    slot.proc.kill('SIGKILL');
  }
}
