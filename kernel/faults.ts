/**
 * Faults a vault's background work meets (an index checkpoint on a full disk, a sync loop), never
 * left to end the process: logged when they begin and end, listed by `doctor`, and told in every
 * answer's notices while they last, so an agent learns why a search may lag.
 */
import { toNotekernelError, type ErrorCode } from './errors.js';
import type { Logger } from './logger.js';

export interface Fault {
  /** What met it ("index checkpoint", "index rows"): one entry per source. */
  source: string;
  code: ErrorCode;
  message: string;
  /** What it means for a caller, and what is done about it. */
  consequence: string;
  since: string;
  times: number;
}

/** The part backends see (BackendContext.faults). */
export interface FaultReporter {
  report(source: string, err: unknown, consequence: string): void;
  clear(source: string): void;
}

export class VaultFaults implements FaultReporter {
  private readonly active = new Map<string, Fault>();

  constructor(private readonly logger: Logger) {}

  report(source: string, err: unknown, consequence: string): void {
    const known = this.active.get(source);
    if (known) {
      known.times += 1;
      return;
    }
    const error = toNotekernelError(err);
    this.active.set(source, {
      source,
      code: error.code,
      message: error.message,
      consequence,
      since: new Date().toISOString(),
      times: 1,
    });
    this.logger.error({ err, source, code: error.code }, `${source}: ${error.message} ${consequence}`);
  }

  clear(source: string): void {
    const known = this.active.get(source);
    if (!known) return;
    this.active.delete(source);
    this.logger.info({ source, failures: known.times }, `${source} works again`);
  }

  list(): Fault[] {
    return [...this.active.values()];
  }

  /** One sentence per fault under way, for the answers' `notices`. */
  notices(): string[] {
    return this.list().map((f) => `${f.source}: ${f.message} ${f.consequence}`);
  }
}
