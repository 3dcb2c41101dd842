/**
 * Simperium failures as the kernel's error classes, so tools report stable codes. An error
 * carries the method, the path without its query, and the status — never a header, a body we
 * sent, the token or the password (axios errors hold all of those, so none is kept as a cause).
 */
import {
  BackendUnavailableError,
  NotFoundError,
  TimeoutError,
  TooLargeError,
  ValidationError,
  type ErrorDetails,
} from '../../../kernel/errors.js';

export interface RequestFacts {
  method: string;
  /** Path only: ids are not secret, query strings may carry cursors but nothing else. */
  path: string;
  status?: number;
  attempts?: number;
}

/** Login refused (bad credentials, unverified account, too many attempts) or a token rejected twice. */
export class SimperiumAuthError extends BackendUnavailableError {
  constructor(message: string, facts: RequestFacts) {
    super(message, { backend: 'simplenote', ...facts });
  }
}

/** The service could not be reached, or kept failing after the retries (or is taken for unreachable for a while). */
export class SimperiumUnavailableError extends BackendUnavailableError {
  constructor(message: string, facts: RequestFacts & { unreachableSince?: string; retryAfter?: string }) {
    super(message, { backend: 'simplenote', ...facts });
  }
}

export class SimperiumTimeoutError extends TimeoutError {
  constructor(message: string, facts: RequestFacts & { setting?: string; timeoutMs?: number }) {
    super(message, { backend: 'simplenote', ...facts } as ErrorDetails);
  }
}

/** An answer past API_MAX_RESPONSE_MB: aborted as it streamed in, not retried. */
export class SimperiumTooLargeError extends TooLargeError {
  constructor(message: string, facts: RequestFacts & { setting: string; limitBytes: number }) {
    super(message, { backend: 'simplenote', ...facts } as ErrorDetails);
  }
}

/** 400: the service refused what we sent (schema, id, JSON). */
export class SimperiumRequestError extends ValidationError {
  constructor(message: string, facts: RequestFacts & { reason: string }) {
    super(message, { backend: 'simplenote', ...facts });
  }
}

export class SimperiumNotFoundError extends NotFoundError {
  constructor(message: string, facts: RequestFacts) {
    super(message, { backend: 'simplenote', ...facts });
  }
}

/** A short, single-line excerpt of a plain-text error body (Simperium's are like "invalid login"). */
export function reasonOf(body: unknown): string {
  const text = typeof body === 'string' ? body : '';
  return text.replace(/\s+/g, ' ').trim().slice(0, 120);
}
