/**
 * search_notes_sql rows → seed 000's result shape. A row that names a note (a string `id` of a
 * note in the vault) becomes a full search result, plus any computed columns the query added
 * (`rating`, `meeting_count`, ...). A row that names no note (`GROUP BY attendee`) is returned
 * as its columns: inventing empty titles for it would mislead more than it helps.
 */
import type { Metadata, Note } from '../../kernel/note.js';
import { excerpt, renderResult, type ResultNote } from './render.js';

/** Columns of seed 000's `notes` table (and our bookkeeping): the result shape already carries them. */
const NOTE_COLUMNS = new Set([
  'id',
  'title',
  'content',
  'type',
  'filename',
  'path',
  'created',
  'updated',
  'size',
  'content_hash',
  'mtime_ms',
  'tags_json',
  'metadata_json',
]);

const READ_CONCURRENCY = 16;

export async function renderSqlRows(
  rows: ReadonlyArray<Record<string, unknown>>,
  read: (id: string) => Promise<Note | undefined>,
): Promise<Array<Record<string, unknown>>> {
  const notes = await notesOf(rows, read);
  return rows.map((row) => {
    const note = typeof row.id === 'string' ? notes.get(row.id) : undefined;
    if (!note) return { ...row };
    const score = typeof row.score === 'number' ? row.score : 1;
    const content = row.content;
    // A note read from its file has its body; one built from an `n.*` row has the row's.
    const body = typeof content === 'string' ? content : ((note as Partial<Note>).content ?? '');
    const snippet = typeof row.snippet === 'string' ? row.snippet : excerpt(body);
    const result: Record<string, unknown> = renderResult(note, score, snippet);
    for (const [key, value] of Object.entries(row)) {
      if (!NOTE_COLUMNS.has(key) && !(key in result)) result[key] = value;
    }
    return result;
  });
}

/**
 * A `notes` row selected whole (`n.*`) already holds everything; any other row naming a note
 * is read through the note service, a few at a time.
 */
async function notesOf(
  rows: ReadonlyArray<Record<string, unknown>>,
  read: (id: string) => Promise<Note | undefined>,
): Promise<Map<string, ResultNote>> {
  const found = new Map<string, ResultNote>();
  const toRead: string[] = [];
  for (const row of rows) {
    if (typeof row.id !== 'string' || found.has(row.id)) continue;
    const whole = fromRow(row);
    if (whole) found.set(row.id, whole);
    else toRead.push(row.id);
  }
  const unique = [...new Set(toRead)];
  for (let i = 0; i < unique.length; i += READ_CONCURRENCY) {
    const batch = unique.slice(i, i + READ_CONCURRENCY);
    const read_ = await Promise.all(batch.map((id) => read(id).catch(() => undefined)));
    read_.forEach((note, k) => note && found.set(batch[k] as string, note));
  }
  return found;
}

function fromRow(row: Record<string, unknown>): ResultNote | undefined {
  const { id, title, filename, path, created, updated, size, tags_json: tags, metadata_json: metadata } = row;
  if (typeof id !== 'string' || typeof title !== 'string' || typeof tags !== 'string' || typeof metadata !== 'string')
    return undefined;
  if (
    typeof filename !== 'string' ||
    typeof path !== 'string' ||
    typeof created !== 'string' ||
    typeof updated !== 'string'
  )
    return undefined;
  try {
    return {
      id,
      title,
      ...(typeof row.type === 'string' ? { type: row.type } : {}),
      filename,
      path,
      created,
      updated,
      size: typeof size === 'number' ? size : 0,
      contentHash: typeof row.content_hash === 'string' ? row.content_hash : '',
      tags: JSON.parse(tags) as string[],
      metadata: JSON.parse(metadata) as Metadata,
    };
  } catch {
    return undefined;
  }
}
