/**
 * The change feed: every write adds rows to `changes` in its own transaction and NOTIFYs; this
 * process LISTENs on one connection of its own, and polls every `pollMs` besides, in case a
 * notification was lost with that connection. NOTIFY only wakes it: what changed is read from the
 * table, forward from the last row seen, so nothing is lost while the listener is away.
 *
 * Sequence order is not commit order: a transaction may take seq 5, another seq 6 and commit
 * first. Rows are therefore read in (xid, seq) order and only below the oldest transaction still
 * running (`pg_snapshot_xmin`): every transaction under that horizon has ended, and any row that
 * becomes visible later belongs to a transaction at or above it, so past the cursor. A row is
 * never skipped; the price is that a long-open transaction anywhere on the server holds the feed
 * back until it ends. Each change is announced with the note as it is when read, so events that
 * arrive in xid order rather than commit order still leave every listener at the latest state.
 */
import type { ExternalChange, Logger, Note, NoteSummary } from '../../kernel/index.js';
import type { StoredRow } from './note-rows.js';
import {
  type ConnectionConfig,
  loadPg,
  type PgPool,
  type PgSingleClient,
  readQuery,
  redactUrl,
  storeError,
} from './driver.js';
import { FEED_CHANNEL, type Table } from './row-writes.js';

const BATCH = 500;

export interface FeedOptions {
  pool: PgPool;
  config: ConnectionConfig;
  table: Table;
  read(id: string): Promise<Note | undefined>;
  /** A note's row as a change recorded it (body left out) as the summary listeners get. */
  summarize(row: StoredRow): NoteSummary;
  logger: Logger;
  /** The fallback poll (default 1 s). */
  pollMs?: number;
  /** Told the listening session's identity each time it (re)connects. */
  onSession?(session: string): Promise<void> | void;
}

export interface FeedStats {
  /** The last row read: (xid, seq). */
  cursor: { xid: string; seq: string };
  announced: number;
  listening: boolean;
}

export class ChangeFeed {
  private readonly listeners = new Set<(change: ExternalChange) => void>();
  private cursor = { xid: '0', seq: '-1' };
  private client: PgSingleClient | undefined;
  private timer: NodeJS.Timeout | undefined;
  private reconnect: NodeJS.Timeout | undefined;
  private polling: Promise<void> | undefined;
  private again = false;
  private closed = false;
  private down = false;
  private announced = 0;

  constructor(private readonly o: FeedOptions) {}

  /** Sets the cursor to now and starts listening; changes committed from here on are announced. */
  async start(): Promise<void> {
    const { rows } = await this.o.pool.query<{ xmin: string }>(
      'SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin',
    );
    this.cursor = { xid: rows[0]!.xmin, seq: '-1' };
    await this.listen();
    this.timer = setInterval(() => void this.poll(), this.o.pollMs ?? 1_000);
    this.timer.unref();
  }

  subscribe(listener: (change: ExternalChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  stats(): FeedStats {
    return { cursor: { ...this.cursor }, announced: this.announced, listening: this.client !== undefined };
  }

  /** Reads forward now; resolves once every row committed before the call is announced. */
  poll(): Promise<void> {
    if (this.polling) {
      this.again = true;
      return this.polling;
    }
    this.polling = (async () => {
      try {
        do {
          this.again = false;
          while ((await this.readBatch()) === BATCH && !this.closed);
        } while (this.again && !this.closed);
        if (this.down) this.o.logger.info('change feed: the database answers again; caught up');
        this.down = false;
      } catch (err) {
        if (!this.down)
          this.o.logger.warn({ err: storeError(err, this.o.config.connectionString) }, 'change feed: cannot read');
        this.down = true;
      } finally {
        this.polling = undefined;
      }
    })();
    return this.polling;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    clearTimeout(this.reconnect);
    await this.polling?.catch(() => undefined);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async readBatch(): Promise<number> {
    const t = this.o.table;
    const { rows } = await readQuery<{
      xid: string;
      seq: string;
      note_id: string;
      origin: string;
      previous: StoredRow | null;
    }>(
      this.o.pool,
      `SELECT xid::text, seq::text, note_id, origin, previous FROM ${t.S}.changes
       WHERE vault = $1 AND (xid, seq) > ($2::xid8, $3::bigint) AND xid < pg_snapshot_xmin(pg_current_snapshot())
       ORDER BY xid, seq LIMIT ${BATCH}`,
      [t.vault, this.cursor.xid, this.cursor.seq],
    );
    if (rows.length === 0) return 0;
    // This process's own writes were announced by its own calls; a note touched twice is read once,
    // told with what it was before the first of those changes.
    const before = new Map<string, StoredRow | null>();
    for (const row of rows)
      if (row.origin !== t.origin && !before.has(row.note_id)) before.set(row.note_id, row.previous);
    const ids = [...before.keys()];
    if (ids.length && this.listeners.size) {
      const notes = await Promise.all(ids.map((id) => this.o.read(id)));
      ids.forEach((id, k) => {
        const note = notes[k];
        const prior = before.get(id);
        const previous = prior ? { previous: this.o.summarize(prior) } : {};
        this.emit(note ? { kind: 'written', note, ...previous } : { kind: 'deleted', id, ...previous });
      });
    }
    const last = rows.at(-1)!;
    this.cursor = { xid: last.xid, seq: last.seq };
    return rows.length;
  }

  private emit(change: ExternalChange): void {
    this.announced += 1;
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch (err) {
        this.o.logger.error({ err }, 'change feed: a listener failed');
      }
    }
  }

  private async listen(): Promise<void> {
    const { Client } = loadPg();
    const client = new Client(this.o.config);
    const lost = (err?: Error) => {
      if (this.client !== client) return;
      this.client = undefined;
      client.end().catch(() => undefined);
      if (this.closed) return;
      this.o.logger.warn(
        { err: err && storeError(err, this.o.config.connectionString), url: redactUrl(this.o.config.connectionString) },
        'change feed: listening connection lost; polling until it is back',
      );
      this.retryListen(1_000);
    };
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (message) => {
      if (message.channel === FEED_CHANNEL && message.payload === this.o.table.channelKey) void this.poll();
    });
    let session: string;
    try {
      await client.connect();
      await client.query(`LISTEN ${FEED_CHANNEL}`);
      const me = await client.query<{ id: string }>(
        `SELECT pg_backend_pid()::text || ':' || backend_start::text AS id FROM pg_stat_activity WHERE pid = pg_backend_pid()`,
      );
      session = me.rows[0]!.id;
    } catch (err) {
      await client.end().catch(() => undefined);
      throw err;
    }
    this.client = client;
    await this.o.onSession?.(session);
    // Whatever was committed while no one listened.
    void this.poll();
  }

  private retryListen(delay: number): void {
    this.reconnect = setTimeout(() => {
      if (this.closed) return;
      this.listen().catch(() => this.retryListen(Math.min(delay * 2, 5_000)));
    }, delay);
    this.reconnect.unref();
  }
}
