/**
 * The `pg` pool of the postgres storage backend, and the one place a driver error becomes ours:
 * a lost or refused connection is `backend_unavailable` at once (the pool reconnects by itself on
 * the next call), and no message carries the connection URL's password.
 */
import { createRequire } from 'node:module';
import { BackendUnavailableError, NotekernelError, TimeoutError } from '../../kernel/errors.js';
import type { Logger } from '../../kernel/logger.js';

export interface PgResult<R> {
  rows: R[];
  rowCount: number | null;
}

export interface PgQueryable {
  query<R = Record<string, unknown>>(text: string, values?: unknown[]): Promise<PgResult<R>>;
}

export interface PgClient extends PgQueryable {
  release(err?: Error | boolean): void;
  on(event: 'error', listener: (err: Error) => void): void;
  removeListener(event: 'error', listener: (err: Error) => void): void;
}

export interface PgPool extends PgQueryable {
  connect(): Promise<PgClient>;
  end(): Promise<void>;
  on(event: 'error', listener: (err: Error) => void): void;
}

/** One connection of its own (the change feed's LISTEN). */
export interface PgSingleClient extends PgQueryable {
  connect(): Promise<void>;
  end(): Promise<void>;
  on(event: 'notification', listener: (message: { channel: string; payload?: string }) => void): void;
  on(event: 'error' | 'end', listener: (err?: Error) => void): void;
  readonly processID?: number;
}

export type PgSsl = boolean | { rejectUnauthorized?: boolean; ca?: string; cert?: string; key?: string };

export interface ConnectionConfig {
  /** Undefined: `pg` reads DATABASE_URL's parts from the PG* variables itself. */
  connectionString?: string;
  ssl?: PgSsl;
  connectionTimeoutMillis: number;
  application_name: string;
}

interface PgModule {
  Pool: new (
    config: ConnectionConfig & {
      max?: number;
      idleTimeoutMillis?: number;
      statement_timeout?: number;
      idle_in_transaction_session_timeout?: number;
    },
  ) => PgPool;
  Client: new (config: ConnectionConfig) => PgSingleClient;
}

export function loadPg(): PgModule {
  try {
    return createRequire(import.meta.url)('pg') as PgModule;
  } catch (err) {
    throw new BackendUnavailableError('The postgres backend needs the npm package "pg": npm install pg', {}, err);
  }
}

/** The URL with its password masked, for every message and log line. */
export function redactUrl(url: string | undefined): string {
  if (!url) return '(PG* environment variables)';
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url.replace(/\/\/([^:/@]*):[^@]*@/, '//$1:***@');
  }
}

/** SQLSTATE classes and driver codes that mean the server cannot be reached or went away. */
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EHOSTUNREACH']);
const UNAVAILABLE_SQLSTATE = /^(08|57P0[1-4]|53300)/;
const UNAVAILABLE_MESSAGE =
  /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Connection ended|not queryable/i;

export function isUnavailable(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown } | undefined;
  const code = typeof e?.code === 'string' ? e.code : '';
  return (
    UNAVAILABLE_CODES.has(code) ||
    UNAVAILABLE_SQLSTATE.test(code) ||
    (typeof e?.message === 'string' && UNAVAILABLE_MESSAGE.test(e.message))
  );
}

/**
 * Our error for a failed call: kernel errors pass, a lost connection becomes `backend_unavailable`
 * (saying whether a write may have landed), a driver error keeps its message with the URL masked.
 */
export function storeError(err: unknown, url: string | undefined, writing = false): Error {
  if (err instanceof NotekernelError) return err;
  const raw = err instanceof Error ? err.message : String(err);
  const message = url ? raw.split(url).join(redactUrl(url)) : raw;
  if ((err as { code?: unknown } | undefined)?.code === '57014')
    return new TimeoutError(`PostgreSQL stopped the statement after 30 s (${message}); nothing was written.`, {
      backend: 'postgres',
    });
  if (isUnavailable(err)) {
    const outcome = writing
      ? ' The write was not acknowledged: read the note again before retrying.'
      : ' Retry once the database is back; this process reconnects by itself.';
    return new BackendUnavailableError(`PostgreSQL at ${redactUrl(url)} is unreachable (${message}).${outcome}`, {
      backend: 'postgres',
    });
  }
  // What the driver did not raise (an edit's own refusal) is the caller's, passed as it is.
  if (typeof (err as { severity?: unknown } | undefined)?.severity !== 'string') return err as Error;
  return new Error(`postgres: ${message}`, { cause: err });
}

export interface OpenedPool {
  pool: PgPool;
  config: ConnectionConfig;
}

/** A pool that never throws from an idle client's error (it is logged, and the client replaced). */
export function openPool(url: string | undefined, ssl: PgSsl | undefined, logger: Logger, max = 8): OpenedPool {
  const { Pool } = loadPg();
  const config: ConnectionConfig = {
    ...(url ? { connectionString: url } : {}),
    ...(ssl !== undefined ? { ssl } : {}),
    // Fail fast while the server is down: a call waits this long for a connection, not forever.
    connectionTimeoutMillis: 3_000,
    application_name: 'notekernel',
  };
  const pool = new Pool({
    ...config,
    max,
    idleTimeoutMillis: 30_000,
    // No call waits on the server for ever; and a transaction of ours left open (an edit that hangs)
    // is ended by the server before it holds every process's change feed back for long.
    statement_timeout: 30_000,
    idle_in_transaction_session_timeout: 60_000,
  });
  pool.on('error', (err) =>
    logger.warn(
      { err: { code: (err as { code?: string }).code, message: err.message }, url: redactUrl(url) },
      'postgres connection lost; the pool reconnects on the next call',
    ),
  );
  return { pool, config };
}

/**
 * A read, tried once more on a fresh connection when the first one it got was already dead (an
 * idle connection the server closed): reads change nothing, and a server that is really down
 * fails the second try at once.
 */
export async function readQuery<R>(pool: PgPool, text: string, values?: unknown[]): Promise<PgResult<R>> {
  try {
    return await pool.query<R>(text, values);
  } catch (err) {
    if (!isUnavailable(err)) throw err;
    return pool.query<R>(text, values);
  }
}

/**
 * `run` inside BEGIN … COMMIT on one pooled connection, rolled back when it throws. A connection
 * found dead at BEGIN (nothing sent on it yet) is swapped once. The connection may die between
 * statements (while an edit runs, or in the very packet that ends BEGIN): its error is caught
 * from the moment it is checked out, the next query fails with it, and it is never reused.
 */
export async function inTransaction<T>(pool: PgPool, run: (client: PgClient) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const client = await pool.connect();
    let broken: Error | undefined;
    const lost = (err: Error) => {
      broken = err;
    };
    client.on('error', lost);
    let begun = false;
    try {
      await client.query('BEGIN');
      begun = true;
      const result = await run(client);
      await client.query('COMMIT');
      return result;
    } catch (err) {
      if (begun)
        await client.query('ROLLBACK').catch((rollbackErr: Error) => {
          broken = rollbackErr;
        });
      else broken ??= err as Error;
      if (!begun && attempt < 2 && isUnavailable(err)) continue;
      throw err;
    } finally {
      client.removeListener('error', lost);
      // A client whose connection broke is destroyed, not handed to the next caller.
      client.release(broken ?? false);
    }
  }
}
