/**
 * memory_search: full text over title and body. With a search backend configured it answers;
 * otherwise every entry is read and matched (seed 002 has no index: O(entries) per query).
 * Words must all appear (case and letters folded: `lodz` finds `Łódź`, `strasse` `Straße`); the
 * title counts three times.
 */
import type { NoteService } from '../../kernel/notes.js';
import type { SearchIndex } from '../../kernel/backend.js';
import { foldWords, foldWordsMapped } from '../../toolkit/text/fold-letters.js';
import { listItem, type EntryListItem } from './view.js';

export interface SearchHitView extends EntryListItem {
  score: number;
  snippet: string;
}

const MAX_HITS = 50;

export async function searchEntries(notes: NoteService, index: SearchIndex | undefined, query: string): Promise<SearchHitView[]> {
  if (index) {
    const page = await index.search({ text: query, limit: MAX_HITS });
    const out: SearchHitView[] = [];
    for (const hit of page.hits) {
      const note = await notes.get(hit.id);
      if (note) out.push({ ...listItem(note), score: hit.score, snippet: hit.snippet });
    }
    return out;
  }
  const words = foldWords(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return [];
  const hits: SearchHitView[] = [];
  for (const summary of await notes.list()) {
    const note = await notes.get(summary.id);
    if (!note) continue;
    const title = foldWords(note.title);
    const body = foldWords(note.content);
    if (!words.every((w) => title.includes(w) || body.includes(w))) continue;
    const score = words.reduce((sum, w) => sum + 3 * occurrences(title, w) + occurrences(body, w), 0);
    hits.push({ ...listItem(note), score, snippet: snippet(note.content, words[0] as string) });
  }
  hits.sort((a, b) => b.score - a.score || (a.updatedAt < b.updatedAt ? 1 : -1));
  return hits.slice(0, MAX_HITS);
}

function occurrences(haystack: string, needle: string): number {
  let n = 0;
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + needle.length)) n++;
  return n;
}

/** ~160 characters around the first match, the match wrapped in <mark> as SearchHit snippets are. */
function snippet(original: string, word: string): string {
  // Found in the folded text, cut from the original: ß → ss and Æ → AE change the length.
  const mapped = foldWordsMapped(original);
  const at = mapped.folded.indexOf(word);
  if (at === -1) return original.slice(0, 160).replace(/\s+/g, ' ').trim();
  const from = mapped.start(at);
  const to = mapped.end(at + word.length - 1);
  const start = Math.max(0, from - 70);
  const end = Math.min(original.length, to + 70);
  const text = `${original.slice(start, from)}<mark>${original.slice(from, to)}</mark>${original.slice(to, end)}`;
  return `${start > 0 ? '…' : ''}${text.replace(/\s+/g, ' ').trim()}${end < original.length ? '…' : ''}`;
}
