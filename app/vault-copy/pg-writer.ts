/**
 * Writes imported notes into a postgres vault a batch at a time, each batch one transaction: the
 * rows as the store writes them (`rowOf` over the verbatim text, so the hash covers the file's
 * bytes), each with its feed row, so every process serving the vault hears of them. The store has
 * no batch form of its raw-text write (`putText` is one transaction a note), so this runs the
 * backend's own row statements (row-writes.ts) inside one transaction; it adds no SQL of its own.
 */
import { randomUUID } from 'node:crypto';
import type { Logger } from '../../kernel/logger.js';
import { BackendUnavailableError, ConflictError, NotekernelError } from '../../kernel/errors.js';
import type { PostgresOptions } from '../../backends/postgres/index.js';
import { connectionUrl } from '../../backends/postgres/index.js';
import { inTransaction, openPool, type PgPool, redactUrl, storeError } from '../../backends/postgres/driver.js';
import { LATEST_VERSION, migrate, schemaVersion } from '../../backends/postgres/migrations.js';
import { fieldsOfText, type NoteRow, rowOf } from '../../backends/postgres/note-rows.js';
import { insertRow, lockRow, type Table, updateRow } from '../../backends/postgres/row-writes.js';
import type { SourceNote } from './markdown-source.js';

/** What became of one note of a batch. */
export type WriteOutcome =
  | { status: 'created' | 'replaced' | 'unchanged' }
  | { status: 'differs'; hash: string }
  | { status: 'refused'; reason: string };

export class PgImportWriter {
  private constructor(
    private readonly pool: PgPool,
    private readonly table: Table,
    private readonly url: string | undefined,
    private readonly now: string,
  ) {}

  /** Opens the vault's database, applying pending migrations as the store does at open (unless `migrate: false`). */
  static async open(options: PostgresOptions, logger: Logger, connections = 4): Promise<PgImportWriter> {
    const url = connectionUrl(options);
    const { pool } = openPool(url, options.ssl, logger, connections);
    try {
      if (options.migrate) await migrate(pool, options.schema);
      else if ((await schemaVersion(pool, options.schema)) !== LATEST_VERSION)
        throw new BackendUnavailableError(
          `The database schema "${options.schema}" is not at version ${LATEST_VERSION}: run \`notekernel migrate-db\`.`,
          { backend: 'postgres' },
        );
    } catch (err) {
      await pool.end().catch(() => undefined);
      throw storeError(err, url);
    }
    const table: Table = {
      S: `"${options.schema}"`,
      vault: options.vault,
      // An origin no serving process has, so every one of them announces the imported notes.
      origin: randomUUID(),
      channelKey: `${options.schema}:${options.vault}`,
    };
    return new PgImportWriter(pool, table, url, new Date().toISOString());
  }

  get database(): string {
    return redactUrl(this.url);
  }

  /**
   * One transaction for the batch. A note already there with the same hash is left alone; one that
   * differs is replaced only with `overwrite` (else reported). A note the store refuses (unreadable
   * frontmatter, an empty tag) is reported and the rest of the batch goes on.
   */
  async write(batch: readonly SourceNote[], overwrite: boolean): Promise<WriteOutcome[]> {
    const prepared = batch.map((note): NoteRow | string => {
      try {
        const type = note.id.split('/')[0]!;
        return rowOf({ ...fieldsOfText(note.id, note.text, { type, now: this.now }), type }, note.text);
      } catch (err) {
        if (err instanceof NotekernelError) return err.message;
        throw err;
      }
    });
    try {
      return await inTransaction(this.pool, async (client) => {
        const outcomes: WriteOutcome[] = [];
        for (const row of prepared) {
          if (typeof row === 'string') {
            outcomes.push({ status: 'refused', reason: row });
            continue;
          }
          const current = await lockRow(client, this.table, row.id);
          if (!current) {
            // Another writer created it since the read: the batch rolls back; a re-run compares hashes again.
            if (!(await insertRow(client, this.table, row)))
              throw new ConflictError(`The note "${row.id}" appeared while it was imported: run the import again.`, {
                id: row.id,
              });
            outcomes.push({ status: 'created' });
          } else if (current.content_hash === row.content_hash) outcomes.push({ status: 'unchanged' });
          else if (!overwrite) outcomes.push({ status: 'differs', hash: current.content_hash });
          else {
            await updateRow(client, this.table, row, current.content_hash, current);
            outcomes.push({ status: 'replaced' });
          }
        }
        return outcomes;
      });
    } catch (err) {
      throw storeError(err, this.url, true);
    }
  }

  async close(): Promise<void> {
    await this.pool.end().catch(() => undefined);
  }
}
