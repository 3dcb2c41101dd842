/**
 * Full-text search over the cache (capability `full-text`): FTS4 with the unicode61 tokenizer
 * (case and diacritics folded) over letter-folded, stemmed words (stem.ts) (`lodz` finds `Łódź`), ranked by BM25 computed from matchinfo (sql.js has no FTS5 and
 * so no built-in bm25; decision 020), title hits weighted above body and tag hits.
 */
import type { SearchHit, SearchPage, SearchQuery } from '../../../kernel/backend.js';
import { foldWords } from '../../../toolkit/search/fold-letters.js';
import { stemWord } from './stem.js';
import { splitText, summaryOf } from '../note-object.js';
import { bm25, cacheQuery, type CacheQuery } from './fts-query.js';
import { liftFirstTier } from '../../../toolkit/first-tier.js';
import type { NoteCache } from './note-cache.js';

const WEIGHTS = [5, 1, 2] as const; // title, text, tags

export function searchCache(cache: NoteCache, query: SearchQuery): SearchPage {
  const offset = query.offset ?? 0;
  if (query.type !== undefined) return { hits: [], total: 0 }; // no note has a type
  const parsed = cacheQuery(query.text);
  if (parsed?.expression === undefined) {
    // No word to look for: the most recently modified, less those an exclusion names.
    const excluded = parsed?.excluded;
    const where =
      excluded === undefined ? '' : 'WHERE rowid NOT IN (SELECT rowid FROM notes_fts WHERE notes_fts MATCH ?)';
    const args = excluded === undefined ? [] : [excluded];
    const total = Number(cache.all(`SELECT count(*) FROM notes ${where}`, args)[0]![0]);
    const rows = cache.all(
      `SELECT id, server_version, object, content_hash FROM notes ${where} ORDER BY modified_at DESC, id DESC LIMIT ? OFFSET ?`,
      [...args, query.limit, offset],
    );
    const hits = rows.map((row): SearchHit => {
      const object = JSON.parse(row[2] as string) as Record<string, unknown>;
      const note = summaryOf(row[0] as string, Number(row[1]), object, row[3] as string);
      return { id: note.id, score: 0, snippet: splitText(String(object.content ?? '')).content.slice(0, 160), note };
    });
    return { hits, total };
  }
  // Score every match from matchinfo alone; read the stored objects of the returned page only.
  const rows = cache.all(
    `SELECT notes_fts.rowid, matchinfo(notes_fts, 'pcnalx'), n.modified_at FROM notes_fts JOIN notes n ON n.rowid = notes_fts.rowid WHERE notes_fts MATCH ?`,
    [parsed.expression],
  );
  const scored = rows.map((row) => {
    const { score, every } = bm25(row[1] as Uint8Array, WEIGHTS);
    // A question's rows holding every word come first; their scores are lifted above the rest.
    return { rowid: row[0] as number, score, first: parsed.every && every, modified: row[2] as number };
  });
  scored.sort(
    (a, b) => Number(b.first) - Number(a.first) || b.score - a.score || b.modified - a.modified || a.rowid - b.rowid,
  );
  const shown = liftFirstTier(scored, (s) => s.first);
  const hits = shown.slice(offset, offset + query.limit).map(({ rowid, score }): SearchHit => {
    const [row] = cache.all('SELECT id, server_version, object, content_hash FROM notes WHERE rowid = ?', [rowid]);
    const object = JSON.parse(row![2] as string) as Record<string, unknown>;
    const note = summaryOf(row![0] as string, Number(row![1]), object, row![3] as string);
    return { id: note.id, score, snippet: snippetOf(String(object.content ?? ''), parsed.terms), note };
  });
  return { hits, total: scored.length };
}

/**
 * A word as written: letters and digits with their accents (a decomposed `Łódź` is one word),
 * as FTS4's unicode61 tokenizer cuts the folded text. Compiled once.
 */
const WORD = /[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu;

/**
 * About 160 characters around the first match, matched words wrapped in <mark>. Words are found
 * as written with one static pattern and compared folded to the terms (already folded by the
 * query parser), so offsets are the text's own even where folding changes length (ß → ss): a
 * pattern built per query with Unicode classes costs ~2 ms to compile, more than the whole search
 * of a selective query.
 */
function snippetOf(text: string, terms: CacheQuery['terms']): string {
  const matches = (written: string) => {
    const word = foldWords(written);
    // A stem keeps its word's first letters: only a word that starts as the stem does is stemmed
    // (stemming every word up to the first match made a search 3.7× slower).
    return terms.some((t) =>
      t.prefix ? word.startsWith(t.word) : word.startsWith(t.word.slice(0, 2)) && stemWord(word) === t.word,
    );
  };
  let first = -1;
  for (const m of text.matchAll(WORD)) {
    if (matches(m[0])) {
      first = m.index;
      break;
    }
  }
  const start = Math.max(0, first - 60);
  const excerpt = text.slice(start, start + 160);
  let out = '';
  let last = 0;
  for (const m of excerpt.matchAll(WORD)) {
    if (!matches(m[0])) continue;
    out += `${excerpt.slice(last, m.index)}<mark>${m[0]}</mark>`;
    last = m.index + m[0].length;
  }
  return out + excerpt.slice(last);
}
