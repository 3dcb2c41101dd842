/**
 * The statements every write runs inside its transaction: the note row (with its search vector,
 * so a committed note is found at once by every process) and the change-feed row with its
 * NOTIFY, which PostgreSQL delivers only if and when the transaction commits.
 */
import type { PgQueryable } from './driver.js';
import { NOTE_COLUMNS, type NoteRow, type StoredRow, searchTexts } from './note-rows.js';

export const FEED_CHANNEL = 'notekernel_changes';

export interface Table {
  /** The quoted schema. */
  S: string;
  vault: string;
  /** This store's mark on its own change rows, so its feed skips what it wrote itself. */
  origin: string;
  /** The NOTIFY payload listeners of this schema and vault wait for. */
  channelKey: string;
}

const tsv = (S: string, title: string, body: string) =>
  `setweight(to_tsvector('${S}.stemmed', ${title}), 'A') || setweight(to_tsvector('${S}.stemmed', ${body}), 'D')`;

/** Inserts a new note; false when its id is taken (nothing written). */
export async function insertRow(client: PgQueryable, t: Table, row: NoteRow): Promise<boolean> {
  const [title, body] = searchTexts(row);
  const inserted = await client.query(
    `INSERT INTO ${t.S}.notes (vault, id, type, title, body, metadata, tags, content_hash, size, created, updated, tsv, text)
     VALUES ($1, $2, $3, $4, $5, $6::json, $7::text[], $8, $9, $10, $11, ${tsv(t.S, '$12', '$13')}, $14)
     ON CONFLICT (vault, id) DO NOTHING`,
    [
      t.vault,
      row.id,
      row.type,
      row.title,
      row.body,
      JSON.stringify(row.metadata),
      row.tags,
      row.content_hash,
      row.size,
      row.created,
      row.updated,
      title,
      body,
      row.text,
    ],
  );
  if (inserted.rowCount !== 1) return false;
  await recordChange(client, t, [row.id], 'written');
  return true;
}

/** Rewrites a note whose hash is still `expectedHash`; false when another write got there first. */
/** `previous`: the row as it was (told to other processes with the change). */
export async function updateRow(
  client: PgQueryable,
  t: Table,
  row: NoteRow,
  expectedHash: string,
  previous?: StoredRow,
): Promise<boolean> {
  const [title, body] = searchTexts(row);
  const updated = await client.query(
    `UPDATE ${t.S}.notes SET title = $3, body = $4, metadata = $5::json, tags = $6::text[], content_hash = $7,
       size = $8, updated = $9, tsv = ${tsv(t.S, '$10', '$11')}, created = $13, text = $14
     WHERE vault = $1 AND id = $2 AND content_hash = $12`,
    [
      t.vault,
      row.id,
      row.title,
      row.body,
      JSON.stringify(row.metadata),
      row.tags,
      row.content_hash,
      row.size,
      row.updated,
      title,
      body,
      expectedHash,
      row.created,
      row.text,
    ],
  );
  if (updated.rowCount !== 1) return false;
  await recordChange(client, t, [row.id], 'written', previous);
  return true;
}

export async function deleteRow(client: PgQueryable, t: Table, previous: StoredRow): Promise<void> {
  await client.query(`DELETE FROM ${t.S}.notes WHERE vault = $1 AND id = $2`, [t.vault, previous.id]);
  await recordChange(client, t, [previous.id], 'deleted', previous);
}

/** The row, locked until the transaction ends, so the hash checked is the hash replaced. */
export async function lockRow(client: PgQueryable, t: Table, id: string): Promise<StoredRow | undefined> {
  const found = await client.query<StoredRow>(
    `SELECT ${NOTE_COLUMNS} FROM ${t.S}.notes WHERE vault = $1 AND id = $2 FOR UPDATE`,
    [t.vault, id],
  );
  return found.rows[0];
}

/**
 * One feed row per note touched, then the wake-up. The write to `notes` comes first in every
 * transaction, so its xid is assigned before these rows take their sequence numbers.
 */
export async function recordChange(
  client: PgQueryable,
  t: Table,
  ids: readonly string[],
  kind: 'written' | 'deleted',
  previous?: StoredRow,
): Promise<void> {
  // The note as it was, without its body: what listeners knew of it (a deleted note's links, a renamed title).
  const before = previous ? JSON.stringify({ ...previous, body: undefined }) : null;
  await client.query(
    `WITH added AS (INSERT INTO ${t.S}.changes (vault, note_id, kind, origin, previous) SELECT $1, unnest($2::text[]), $3, $4, $6::jsonb)
     SELECT pg_notify('${FEED_CHANNEL}', $5)`,
    [t.vault, ids, kind, t.origin, t.channelKey, before],
  );
}
