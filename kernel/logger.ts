/**
 * pino to stderr (fd 2) by default, or to a file: stdout belongs to the MCP stdio protocol.
 * Records at info and above are also offered to listeners (the MCP server forwards them to
 * clients as `notifications/message`), parsed only while someone listens.
 */
import { pino, type Logger as PinoLogger } from 'pino';

export type Logger = PinoLogger;

export interface LoggerOptions {
  level?: string;
  /** Append logs to this file instead of stderr. */
  file?: string;
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
  const destination = options.file
    ? pino.destination({ dest: options.file, append: true, mkdir: true, sync: false })
    : pino.destination({ fd: 2, sync: true });
  const streams = pino.multistream([
    { level: level as pino.Level, stream: destination },
    { level: 'info', stream: tap },
  ]);
  return pino({ level, base: { name: 'notekernel' } }, streams);
}

/** A logger that drops everything, for libraries embedding the kernel and for tests. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
