/**
 * The `logging` capability: log records a client should see (skipped files, a slow index build,
 * failed syncs) reach it as `notifications/message`.
 * - 2025 era: at the level the connection chose with `logging/setLevel`; until it chooses, only
 *   warnings and worse. Every record of the process goes to every connection.
 * - 2026-07-28: there is no connection. A request carries its own level in its envelope (none:
 *   no records), and gets the records its own work logged, on its own response stream.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { LoggingLevel, Server } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { onLogRecord, type LogRecord } from '../logging/logger.js';
import { type Extra, handle } from './requests.js';

const SEVERITY: Record<LoggingLevel, number> = {
  debug: 0,
  info: 1,
  notice: 2,
  warning: 3,
  error: 4,
  critical: 5,
  alert: 6,
  emergency: 7,
};

const LEVELS = Object.keys(SEVERITY) as [LoggingLevel, ...LoggingLevel[]];

function levelOf(pinoLevel: number): LoggingLevel {
  if (pinoLevel >= 60) return 'critical';
  if (pinoLevel >= 50) return 'error';
  if (pinoLevel >= 40) return 'warning';
  if (pinoLevel >= 30) return 'info';
  return 'debug';
}

// pino's own bookkeeping fields; the rest of a record is what the client reads.
const NOISE = new Set(['level', 'time', 'pid', 'hostname', 'name']);

function dataOf(record: LogRecord): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([key]) => !NOISE.has(key)));
}

/** Installs setLevel and forwarding on a 2025-era `server`; returns the function that stops forwarding. */
export function forwardLogs(server: Server): () => void {
  let chosen: LoggingLevel = 'warning';
  const params = z.object({ level: z.enum(LEVELS) }).loose();
  handle(server, 'logging/setLevel', params, async ({ level }) => {
    chosen = level;
    return {};
  });
  return onLogRecord((record: LogRecord) => {
    const level = levelOf(record.level);
    if (SEVERITY[level] < SEVERITY[chosen]) return;
    // A closed or not-yet-initialised connection simply misses the record; logging that
    // failure would feed this same listener.
    server.sendLoggingMessage({ level, logger: 'notekernel', data: dataOf(record) }).catch(() => undefined);
  });
}

const requestLog = new AsyncLocalStorage<Extra['mcpReq']['log']>();
let listening = false;

/**
 * Runs one request's work; on a 2026-07-28 request the records it logs go back to that request
 * (the SDK filters them by the level in its envelope).
 */
export function requestLogs<T>(era: 'legacy' | 'modern', extra: Extra, work: () => Promise<T>): Promise<T> {
  if (era === 'legacy') return work();
  if (!listening) {
    listening = true;
    onLogRecord((record: LogRecord) => {
      requestLog
        .getStore()?.(levelOf(record.level), dataOf(record), 'notekernel')
        .catch(() => undefined);
    });
  }
  return requestLog.run(extra.mcpReq.log, work);
}
