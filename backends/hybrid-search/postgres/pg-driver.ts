/**
 * The `pg` client, loaded only when a vault selects `engine: postgres`: a vault on the embedded
 * engine never needs it installed. Typed here by the few members used.
 */
import { createRequire } from 'node:module';
import { BackendUnavailableError } from '../../../kernel/index.js';

export interface PgQueryResult<R> {
  rows: R[];
}

export interface PgClient {
  query<R = Record<string, unknown>>(text: string, values?: unknown[]): Promise<PgQueryResult<R>>;
  release(): void;
}

export interface PgPool {
  query<R = Record<string, unknown>>(text: string, values?: unknown[]): Promise<PgQueryResult<R>>;
  connect(): Promise<PgClient>;
  end(): Promise<void>;
  on(event: 'error', listener: (err: Error) => void): void;
}

interface PgModule {
  Pool: new (config: {
    connectionString: string;
    max?: number;
    options?: string;
    connectionTimeoutMillis?: number;
  }) => PgPool;
}

export function loadPg(): PgModule {
  try {
    return createRequire(import.meta.url)('pg') as PgModule;
  } catch (err) {
    throw new BackendUnavailableError(
      'hybrid-search with engine "postgres" needs the npm package "pg" beside notekernel: npm install pg',
      {},
      err,
    );
  }
}
