/**
 * capability `sql`: an agent's SELECT over the index, checked by sql-guard.ts, then run in the
 * sandbox process (its own read-only connection, a time limit, a row cap, a byte cap).
 */
import type { SqlQueryOptions } from '../../kernel/backend.js';
import { NotekernelError, ValidationError } from '../../kernel/errors.js';
import type { SqlParams } from '../../kernel/index-database.js';
import { checkReadOnlySql, refusal, type RefusalReason } from './sql-guard.js';
import { SandboxFailure, type SqlSandbox } from './sql-sandbox.js';

export const DEFAULT_SQL_TIMEOUT_MS = 30_000;
export const DEFAULT_SQL_MAX_ROWS = 1_000;
/** Rows are held in memory twice (sandbox, server) before rendering: keep them bounded. */
const MAX_RESULT_BYTES = 64 * 1024 * 1024;

type Bindable = string | number | bigint | null;

export async function runSql(
  sandbox: SqlSandbox,
  query: string,
  params: SqlParams | undefined,
  options: SqlQueryOptions = {},
): Promise<Array<Record<string, unknown>>> {
  if (typeof query !== 'string') throw new ValidationError('query: give the SQL as a string.', { field: 'query' });
  checkReadOnlySql(query);
  const bound = bindParams(params);
  const maxRows = Math.max(1, Math.floor(options.maxRows ?? DEFAULT_SQL_MAX_ROWS));
  const timeoutMs = Math.max(1, Math.floor(options.timeoutMs ?? DEFAULT_SQL_TIMEOUT_MS));
  try {
    const reply = await sandbox.run<{ rows: Array<Record<string, unknown>> }>(
      {
        kind: 'sql',
        sql: query,
        ...(bound !== undefined ? { params: bound } : {}),
        maxRows,
        maxBytes: MAX_RESULT_BYTES,
      },
      timeoutMs,
      'The SQL query',
    );
    return reply.rows.map(plainRow);
  } catch (err) {
    throw err instanceof SandboxFailure ? sandboxError(err) : err;
  }
}

function sandboxError(failure: SandboxFailure): NotekernelError {
  switch (failure.kind) {
    case 'refused':
      return refusal((failure.reason ?? 'not_select') as RefusalReason);
    case 'sql':
      return new ValidationError(`SQL error: ${failure.message}.`, { field: 'query', sqlite: failure.message });
    case 'too_large':
      return new ValidationError(
        `The result is too large (${failure.message}); select fewer columns (leave out content) or add a LIMIT.`,
        { field: 'query' },
      );
    default:
      return new NotekernelError('internal', failure.message);
  }
}

/** `?` values as a list, `@name` / `:name` / `$name` values as an object; booleans become 1 / 0. */
function bindParams(params: SqlParams | undefined): Bindable[] | Record<string, Bindable> | undefined {
  if (params === undefined || params === null) return undefined;
  if (Array.isArray(params)) return params.map((value, i) => bindable(value, `params.${i}`));
  if (typeof params !== 'object')
    throw new ValidationError('params: give a list (for ?) or an object (for @name).', { field: 'params' });
  const out: Record<string, Bindable> = {};
  for (const [name, value] of Object.entries(params))
    out[name.replace(/^[@:$]/, '')] = bindable(value, `params.${name}`);
  return out;
}

function bindable(value: unknown, field: string): Bindable {
  if (value === null || typeof value === 'string' || typeof value === 'bigint') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value))
      throw new ValidationError(`${field}: ${value} cannot be bound; give a finite number.`, { field });
    return value;
  }
  if (typeof value === 'boolean') return value ? 1 : 0;
  throw new ValidationError(`${field}: give a string, number, boolean or null.`, { field });
}

/** JSON-safe values: big integers as numbers when exact (else text), blobs as base64. */
function plainRow(row: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    if (typeof value === 'bigint') out[key] = Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
    else if (value instanceof Uint8Array) out[key] = Buffer.from(value).toString('base64');
    else out[key] = value;
  }
  return out;
}
