/**
 * pino to stderr (fd 2) by default, or to a file: stdout belongs to the MCP stdio protocol.
 * On a terminal the lines are readable (pretty-log.ts); piped, in a file, or with format
 * `json` (NOTEKERNEL_LOG_FORMAT, --log-format, logging.format) they stay pino's JSON.
 * Records at info and above are also offered to listeners (the MCP server forwards them to
 * clients as `notifications/message`), parsed only while someone listens.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pino } from 'pino';
import type { Logger } from '../../kernel/logger.js';
import { prettyDestination } from './pretty-log.js';

export interface LoggerOptions {
  level?: string;
  /** Append logs to this file instead of stderr. */
  file?: string;
  /** `pretty` lines for people, `json` for machines; `auto` (default): pretty on a terminal's stderr only. */
  format?: LogFormat;
}

export const LOG_FORMATS = ['auto', 'pretty', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** Whether records are written readable: never into a file, on a terminal unless told otherwise. */
export function usePrettyLogs(
  format: string | undefined,
  file: string | undefined,
  stderr: { isTTY?: boolean } = process.stderr,
): boolean {
  if (file) return format === 'pretty';
  const chosen = format ?? process.env.NOTEKERNEL_LOG_FORMAT ?? 'auto';
  return chosen === 'pretty' || (chosen !== 'json' && stderr.isTTY === true);
}

/** One log record as pino wrote it: `level` is pino's number (30 info, 40 warn, 50 error, 60 fatal). */
export interface LogRecord {
  level: number;
  msg?: string;
  [field: string]: unknown;
}

const listeners = new Set<(record: LogRecord) => void>();

/** Calls `listener` with each record of info and above; returns the unsubscribe function. */
export function onLogRecord(listener: (record: LogRecord) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const tap = {
  write(line: string): void {
    if (listeners.size === 0) return;
    let record: LogRecord;
    try {
      record = JSON.parse(line) as LogRecord;
    } catch {
      return;
    }
    for (const listener of listeners) listener(record);
  },
};

export function createLogger(options: LoggerOptions = {}): Logger {
  const level = options.level ?? process.env.NOTEKERNEL_LOG_LEVEL ?? 'info';
  const destination = usePrettyLogs(options.format, options.file)
    ? options.file
      ? prettyDestination(fileDescriptor(options.file), {})
      : prettyDestination()
    : options.file
      ? pino.destination({ dest: options.file, append: true, mkdir: true, sync: false })
      : pino.destination({ fd: 2, sync: true });
  const streams = pino.multistream([
    { level: level as pino.Level, stream: destination },
    { level: 'info', stream: tap },
  ]);
  return pino({ level, base: { name: 'notekernel' } }, streams);
}

function fileDescriptor(file: string): number {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  return fs.openSync(file, 'a');
}
