/**
 * Fault injection for the fake Simperium server: the next N matching requests are answered with
 * an error status (before the request is applied, as a throttled server would), or are applied
 * and then answered late or cut off mid-body (the case where a client cannot know whether its
 * write landed).
 */
export interface FaultMatch {
  method?: string;
  /** Tested against the request path (without the query). */
  path?: RegExp;
  /** Tested against the raw query string (without the `?`). */
  query?: RegExp;
}

export type Fault =
  /** Answer with this status instead of handling the request; the change is not applied. */
  | { kind: 'status'; status: number; retryAfter?: string; body?: string }
  /** Handle the request, then wait this long before answering. */
  | { kind: 'delay'; ms: number }
  /** Handle the request, then send the headers and half the body and destroy the socket. */
  | { kind: 'drop' }
  /**
   * An index page that rewinds: each object with data comes `by` versions older (its data from
   * then); with `sameVersion` the version number stays the current one (a feed that repeats a
   * version with other content).
   */
  | { kind: 'rewind'; by: number; sameVersion?: boolean }
  /** Send the headers, then the body one byte every `everyMs` (a server that never quite stalls). */
  | { kind: 'drip'; everyMs: number }
  /** Answer 200 with a JSON body of `bytes` bytes, streamed from one small chunk (the server holds none of it). */
  | { kind: 'huge'; bytes: number }
  /** Cut the connection without an answer, nothing applied (a service that is down). */
  | { kind: 'reset' }
  /** Never answer, nothing applied (a service that hangs); the connection stays open until the client gives up. */
  | { kind: 'hang' };

interface Pending {
  fault: Fault;
  match: FaultMatch;
  remaining: number;
}

export class Faults {
  private readonly pending: Pending[] = [];

  /** The next `count` requests matching `match` meet `fault` (queued faults apply in order). */
  next(count: number, fault: Fault, match: FaultMatch = {}): void {
    this.pending.push({ fault, match, remaining: count });
  }

  clear(): void {
    this.pending.length = 0;
  }

  take(method: string, path: string, query = ''): Fault | undefined {
    const index = this.pending.findIndex(
      (p) =>
        (p.match.method === undefined || p.match.method === method) &&
        (p.match.path === undefined || p.match.path.test(path)) &&
        (p.match.query === undefined || p.match.query.test(query)),
    );
    if (index < 0) return undefined;
    const entry = this.pending[index]!;
    entry.remaining -= 1;
    if (entry.remaining <= 0) this.pending.splice(index, 1);
    return entry.fault;
  }
}
