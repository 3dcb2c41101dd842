/** The logger every part receives: pino's. The app makes the real one (app/logging/logger.ts). */
import { pino, type Logger as PinoLogger } from 'pino';

export type Logger = PinoLogger;

/** A logger that drops everything, for libraries embedding the kernel and for tests. */
export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
