/**
 * The floor under issue 18's keyword-set target: each query's FTS5 expression (as the store
 * builds it) ranked by bm25 with the store's weights, top 10 only, straight on the index file.
 * No count, no snippets, no title tier, no JavaScript around it, no MCP. A query that at least
 * half the notes match is counted as 0 ms: the store ranks those without bm25 (search-broad.ts).
 * What an answer ranked exactly by bm25 cannot go below on this machine (decision 033).
 */
import Database from 'better-sqlite3';
import { parseAgentQuery } from '../../backends/fs-sqlite/fts-query.js';
import { percentile } from './stats.js';

export function bm25Floor(indexFile: string, queries: readonly string[], rounds = 2): { p95: number; p50: number } {
  const db = new Database(indexFile, { readonly: true });
  try {
    db.pragma('cache_size = -65536');
    const notes = (db.prepare('SELECT count(*) AS n FROM notes').get() as { n: number }).n;
    const count = db.prepare('SELECT count(*) AS n FROM notes_fts WHERE notes_fts MATCH ?');
    const top = db.prepare(
      'SELECT rowid, -bm25(notes_fts, 0.0, 10.0, 1.0, 0.0) AS s FROM notes_fts WHERE notes_fts MATCH ? ORDER BY s DESC LIMIT 10',
    );
    const ranked = queries
      .map((q) => parseAgentQuery(q).positive)
      .map((match) => (match && (count.get(match) as { n: number }).n * 2 < notes ? match : undefined));
    for (const match of ranked) if (match) top.all(match);
    const ms: number[] = [];
    for (let r = 0; r < rounds; r++) {
      for (const match of ranked) {
        if (!match) {
          ms.push(0);
          continue;
        }
        const started = performance.now();
        top.all(match);
        ms.push(performance.now() - started);
      }
    }
    return { p95: percentile(ms, 95), p50: percentile(ms, 50) };
  } finally {
    db.close();
  }
}
