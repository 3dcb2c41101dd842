/**
 * Conversations kept in memory (lost on restart, as in the seed). A session's turns run one at
 * a time: two requests racing on one session would each miss the other's messages.
 */
import { randomUUID } from 'node:crypto';
import type { ChatMessage } from './chat-completions.js';

export interface Session {
  id: string;
  messages: ChatMessage[];
}

export class Sessions {
  private readonly sessions = new Map<string, { session: Session; queue: Promise<unknown> }>();

  create(): Session {
    const session: Session = { id: randomUUID(), messages: [] };
    this.sessions.set(session.id, { session, queue: Promise.resolve() });
    return session;
  }

  get(id: string): Session | undefined {
    return this.sessions.get(id)?.session;
  }

  delete(id: string): void {
    this.sessions.delete(id);
  }

  /** Runs `work` after every earlier turn of the session has finished. */
  serialise<T>(session: Session, work: () => Promise<T>): Promise<T> {
    const entry = this.sessions.get(session.id);
    if (!entry) return work();
    const result = entry.queue.then(work);
    entry.queue = result.catch(() => undefined);
    return result;
  }
}
