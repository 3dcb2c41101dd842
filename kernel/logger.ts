/**
 * pino to stderr (fd 2) by default, or to a file: stdout belongs to the MCP stdio protocol.
 */
import { pino, type Logger as PinoLogger } from 'pino';

export type Logger = PinoLogger;

export interface LoggerOptions {
  level?: string;
  /** Append logs to this file instead of stderr. */
  file?: string;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const level = options.level ?? process.env.NOTEKERNEL_LOG_LEVEL ?? 'info';
  const destination = options.file
    ? pino.destination({ dest: options.file, append: true, mkdir: true, sync: false })
    : pino.destination({ fd: 2, sync: true });
  return pino({ level, base: { name: 'notekernel' } }, destination);
}

/** A logger that drops everything, for libraries embedding the kernel and for tests. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
