/**
 * The doctor's checks for a vault kept in PostgreSQL (issue 30): the server answers (and as whom),
 * pgvector is there for hybrid search, the schema is at this version's migrations, and no
 * transaction has been open long enough to hold the change feed back (the feed reads only below
 * the oldest running transaction). Nothing here is written; the URL is shown with its password masked.
 */
import { toNotekernelError } from '../../../kernel/errors.js';
import { silentLogger } from '../../../kernel/logger.js';
import { postgresTarget } from './postgres-target.js';

interface Finding {
  check: string;
  ok: boolean;
  detail: string;
  fix?: string;
}

/** A transaction open longer than this is reported: every process's feed waits for it. */
const FEED_HOLD_SECONDS = 60;

export async function postgresFindings(options: { config?: string }, vault: string): Promise<Finding[]> {
  let target: Awaited<ReturnType<typeof postgresTarget>>;
  try {
    target = await postgresTarget({
      ...(options.config ? { config: options.config } : {}),
      searchFrom: [vault, process.cwd()],
    });
  } catch {
    return []; // the config finding already says what is wrong with the file
  }
  if (!target) return [];
  const { connectionUrl } = await import('../../../backends/postgres/index.js');
  const { openPool, redactUrl, storeError } = await import('../../../backends/postgres/driver.js');
  const { LATEST_VERSION, schemaVersion } = await import('../../../backends/postgres/migrations.js');
  const url = connectionUrl(target.options);
  const where = redactUrl(url);
  const { schema } = target.options;
  const { pool } = openPool(url, target.options.ssl, silentLogger(), 1);
  const findings: Finding[] = [];
  try {
    const server = (
      await pool.query<{ version: string; user: string }>('SELECT version() AS version, current_user AS user')
    ).rows[0]!;
    findings.push({
      check: 'postgres',
      ok: true,
      detail: `${server.version.split(' on ')[0]} at ${where} as ${server.user}`,
    });
    const vector = (
      await pool.query<{ extversion: string }>("SELECT extversion FROM pg_extension WHERE extname = 'vector'")
    ).rows[0];
    findings.push({
      check: 'pgvector',
      ok: true,
      detail: vector
        ? `vector ${vector.extversion} installed`
        : 'not installed: the store and keyword search do not need it; hybrid search (hybrid-search, engine postgres) does',
    });
    const version = await schemaVersion(pool, schema);
    findings.push(
      version === LATEST_VERSION
        ? { check: 'schema', ok: true, detail: `schema "${schema}" at version ${version}` }
        : version < LATEST_VERSION
          ? {
              check: 'schema',
              ok: false,
              detail: `schema "${schema}" at version ${version}; this notekernel needs ${LATEST_VERSION}`,
              fix: `notekernel migrate-db --config <file> (or open the vault with storage.options.migrate: true)`,
            }
          : {
              check: 'schema',
              ok: false,
              detail: `schema "${schema}" at version ${version}, newer than this notekernel (${LATEST_VERSION})`,
              fix: 'upgrade notekernel on this machine to the version the other hosts run',
            },
    );
    const oldest = (
      await pool.query<{ pid: number; app: string; seconds: number }>(
        `SELECT pid, application_name AS app, extract(epoch FROM now() - xact_start)::float8 AS seconds
         FROM pg_stat_activity WHERE backend_xid IS NOT NULL AND pid <> pg_backend_pid() ORDER BY xact_start LIMIT 1`,
      )
    ).rows[0];
    const held = oldest !== undefined && oldest.seconds > FEED_HOLD_SECONDS;
    findings.push({
      check: 'feed',
      ok: !held,
      detail: held
        ? `a transaction (pid ${oldest.pid}, ${oldest.app || 'no application name'}) has been open ${Math.round(oldest.seconds)} s: every process's change feed waits for it`
        : 'no long-open transaction holds the change feed back',
      ...(held ? { fix: `end that session's transaction (or SELECT pg_terminate_backend(${oldest.pid}))` } : {}),
    });
  } catch (err) {
    const error = toNotekernelError(storeError(err, url));
    findings.push({
      check: 'postgres',
      ok: false,
      detail: `${where} (from ${target.source}): ${error.message}`,
      fix: 'start the server or correct storage.options.url / DATABASE_URL / PG*; check the role can log in',
    });
  } finally {
    await pool.end().catch(() => undefined);
  }
  return findings;
}
