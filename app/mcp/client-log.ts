/**
 * The `logging` capability: log records a client should see (skipped files, a slow index build,
 * failed syncs) reach it as `notifications/message`, at the level it chose with
 * `logging/setLevel`. Until it chooses, only warnings and worse are sent.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { LoggingLevelSchema, type LoggingLevel } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { onLogRecord, type LogRecord } from '../logging/logger.js';
import { handle } from './requests.js';

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

function levelOf(pinoLevel: number): LoggingLevel {
  if (pinoLevel >= 60) return 'critical';
  if (pinoLevel >= 50) return 'error';
  if (pinoLevel >= 40) return 'warning';
  if (pinoLevel >= 30) return 'info';
  return 'debug';
}

// pino's own bookkeeping fields; the rest of a record is what the client reads.
const NOISE = new Set(['level', 'time', 'pid', 'hostname', 'name']);

/** Installs setLevel and forwarding on `server`; returns the function that stops forwarding. */
export function forwardLogs(server: Server): () => void {
  let chosen: LoggingLevel = 'warning';
  const params = z.object({ level: LoggingLevelSchema }).loose();
  handle(server, 'logging/setLevel', params, async ({ level }) => {
    chosen = level;
    return {};
  });
  return onLogRecord((record: LogRecord) => {
    const level = levelOf(record.level);
    if (SEVERITY[level] < SEVERITY[chosen]) return;
    const data = Object.fromEntries(Object.entries(record).filter(([key]) => !NOISE.has(key)));
    // A closed or not-yet-initialised connection simply misses the record; logging that
    // failure would feed this same listener.
    server.sendLoggingMessage({ level, logger: 'notekernel', data }).catch(() => undefined);
  });
}
