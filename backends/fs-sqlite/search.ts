/**
 * fs-sqlite's SearchIndex over `notes_fts`: bm25 with the title weighted above the content.
 * The index is written by the store itself (kind `both`), so upsert/remove here only re-sync
 * a note another component hands in.
 */
import type { SearchIndex, SearchPage, SearchQuery } from '../../kernel/backend.js';
import type { Note } from '../../kernel/note.js';
import type { IndexDb } from './index-db.js';
import { toIndexed } from './note-file.js';

/** Every term quoted: nothing an agent types can be an FTS5 syntax error. */
export function toFtsQuery(text: string): string {
  const terms = text.match(/[\p{L}\p{N}_]+/gu) ?? [];
  return terms.map((t) => `"${t}"`).join(' ');
}

export function createSearchIndex(db: IndexDb): SearchIndex {
  const hits = db.db.prepare(`SELECT n.id AS id, bm25(notes_fts, 0, 10, 1, 0) AS rank,
      snippet(notes_fts, 2, '**', '**', '…', 16) AS snippet
    FROM notes_fts JOIN notes n ON n.rowid = notes_fts.rowid
    WHERE notes_fts MATCH @match AND (@type IS NULL OR n.type = @type)
    ORDER BY rank LIMIT @limit OFFSET @offset`);
  const total = db.db.prepare(`SELECT COUNT(*) AS n FROM notes_fts JOIN notes n ON n.rowid = notes_fts.rowid
    WHERE notes_fts MATCH @match AND (@type IS NULL OR n.type = @type)`);
  return {
    async search(query: SearchQuery): Promise<SearchPage> {
      const match = toFtsQuery(query.text);
      if (!match) return { hits: [], total: 0 };
      const params = { match, type: query.type ?? null, limit: query.limit, offset: query.offset ?? 0 };
      const rows = hits.all(params) as Array<{ id: string; rank: number; snippet: string }>;
      const count = (total.get({ match, type: params.type }) as { n: number }).n;
      return { hits: rows.map((r) => ({ id: r.id, score: -r.rank, snippet: r.snippet })), total: count };
    },
    async upsert(note: Note): Promise<void> {
      db.upsert(toIndexed(note, db.fileState(note.id)?.mtimeMs ?? 0));
    },
    async remove(id: string): Promise<void> {
      db.remove(id);
    },
    async close(): Promise<void> {
      // Closed with the store.
    },
  };
}
