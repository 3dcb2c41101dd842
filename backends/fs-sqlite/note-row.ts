/** A `notes` row as listings and searches read it, and the NoteSummary made of it. */
import type { Metadata, NoteSummary } from '../../kernel/note.js';

/** A `notes` row as listings read it (everything but the content). */
export interface NoteRow {
  id: string;
  title: string;
  type: string;
  filename: string;
  path: string;
  created: string;
  updated: string;
  size: number;
  content_hash: string;
  tags_json: string;
  metadata_json: string;
}

export function toSummary(row: NoteRow): NoteSummary {
  const summary = {
    id: row.id,
    title: row.title,
    type: row.type,
    path: row.path,
    filename: row.filename,
    created: row.created,
    updated: row.updated,
    size: row.size,
    contentHash: row.content_hash,
    tags: JSON.parse(row.tags_json) as string[],
  };
  return withLazyMetadata(summary, row.metadata_json);
}

/**
 * `metadata` as an own, enumerable property parsed on first read: a listing of 10,000 rows
 * (the links reconcile at every start) does not parse 10,000 JSON objects nobody reads, while a
 * spread or JSON.stringify of the summary still sees the value.
 */
function withLazyMetadata<T extends object>(target: T, json: string): T & { metadata: Metadata } {
  let parsed: Metadata | undefined;
  return Object.defineProperty(target as T & { metadata: Metadata }, 'metadata', {
    enumerable: true,
    configurable: true,
    get: () => (parsed ??= JSON.parse(json) as Metadata),
    set: (value: Metadata) => {
      parsed = value;
    },
  });
}
