/**
 * The HTTP sessions of one server (Streamable HTTP and legacy SSE alike). Each holds its own
 * MCP Server and transport, so abandoned ones must not pile up: a session idle for longer than
 * `idleMs` is closed, and when `max` are open the one idle longest makes room for a new one.
 * A session with a request in progress (an open SSE stream counts) is never closed for that.
 */
import type { Server, Transport } from '@modelcontextprotocol/server';
import type { Logger } from '../../kernel/logger.js';

export const DEFAULT_SESSION_IDLE_MS = 15 * 60_000;
export const DEFAULT_MAX_SESSIONS = 100;

export interface Session<T extends Transport = Transport> {
  transport: T;
  server: Server;
  lastActive: number;
  busy: number;
}

export class SessionTable {
  private readonly sessions = new Map<string, Session>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly logger: Logger,
    private readonly idleMs = DEFAULT_SESSION_IDLE_MS,
    private readonly max = DEFAULT_MAX_SESSIONS,
  ) {
    this.sweeper = setInterval(() => this.closeIdle(), Math.max(1_000, Math.min(idleMs / 4, 60_000)));
    this.sweeper.unref();
  }

  get size(): number {
    return this.sessions.size;
  }

  get<T extends Transport>(id: string): Session<T> | undefined {
    return this.sessions.get(id) as Session<T> | undefined;
  }

  /** Room for one more: closes the longest-idle session when full; false when all are busy. */
  makeRoom(): boolean {
    if (this.sessions.size < this.max) return true;
    let oldest: [string, Session] | undefined;
    for (const entry of this.sessions) {
      if (entry[1].busy === 0 && (!oldest || entry[1].lastActive < oldest[1].lastActive)) oldest = entry;
    }
    if (!oldest) return false;
    this.logger.debug({ session: oldest[0] }, 'session limit reached; closing the longest-idle session');
    this.close(oldest[0]);
    return true;
  }

  add(id: string, transport: Transport, server: Server): void {
    this.sessions.set(id, { transport, server, lastActive: Date.now(), busy: 0 });
  }

  /** Marks the session busy until `done` fires (the response finished or its socket closed). */
  track(session: Session, onDone: (listener: () => void) => void): void {
    session.busy++;
    let finished = false;
    onDone(() => {
      if (finished) return;
      finished = true;
      session.busy--;
      session.lastActive = Date.now();
    });
  }

  /** Forgets the session (its transport closed itself, or the client sent DELETE). */
  forget(id: string): void {
    this.sessions.delete(id);
  }

  close(id: string): void {
    const session = this.sessions.get(id);
    if (!session) return;
    this.sessions.delete(id);
    session.server.close().catch((err: unknown) => this.logger.warn({ err, session: id }, 'closing a session failed'));
  }

  closeIdle(now = Date.now()): void {
    for (const [id, session] of this.sessions) {
      if (session.busy === 0 && now - session.lastActive > this.idleMs) {
        this.logger.debug({ session: id }, 'closing an idle session');
        this.close(id);
      }
    }
  }

  async closeAll(): Promise<void> {
    clearInterval(this.sweeper);
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.allSettled(all.map((session) => session.server.close()));
  }
}
