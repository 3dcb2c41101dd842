/**
 * memory_search: full text over title and body. With a search backend configured it answers;
 * otherwise every entry is read and matched (seed 002 has no index: O(entries) per query).
 * Words must all appear (case and letters folded: `lodz` finds `Łódź`, `strasse` `Straße`); the
 * title counts three times.
 */
import type { NoteService } from '../../kernel/notes.js';
import type { SearchIndex } from '../../kernel/backend.js';
import type { NoteSummary } from '../../kernel/note.js';
import { foldWords, foldWordsMapped } from '../../toolkit/text/fold-letters.js';
import { listItem, type EntryListItem } from './view.js';

export interface SearchHitView extends EntryListItem {
  score: number;
  snippet: string;
}

const MAX_HITS = 50;
/** Folded bodies kept per vault, in characters: a 10,000-entry memory of 1–2 KB entries fits. */
const BODY_CHARS = 16_000_000;

/**
 * Each entry's folded body by id, at the content hash it was read at. A search without an index
 * matched every entry by reading it again (1.5 s of a 1.6 s search at 10,000 entries); the list
 * gives every hash, so only entries changed since their last read are read. The least recently
 * used leave first once the bound is passed.
 */
class FoldedBodies {
  private readonly bodies = new Map<string, { hash: string; body: string }>();
  private chars = 0;

  async of(notes: NoteService, summary: NoteSummary): Promise<string | undefined> {
    const kept = this.bodies.get(summary.id);
    if (kept) this.bodies.delete(summary.id);
    if (kept?.hash === summary.contentHash) {
      this.bodies.set(summary.id, kept);
      return kept.body;
    }
    if (kept) this.chars -= kept.body.length;
    const note = await notes.get(summary.id);
    if (!note) return undefined;
    const body = foldWords(note.content);
    this.bodies.set(summary.id, { hash: note.contentHash, body });
    this.chars += body.length;
    for (const [id, entry] of this.bodies) {
      if (this.chars <= BODY_CHARS) break;
      this.bodies.delete(id);
      this.chars -= entry.body.length;
    }
    return body;
  }
}

/** One cache per open vault (its note service), gone with it. */
const bodiesOf = new WeakMap<NoteService, FoldedBodies>();

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
  let bodies = bodiesOf.get(notes);
  if (!bodies) bodiesOf.set(notes, (bodies = new FoldedBodies()));
  const matched: Array<{ summary: NoteSummary; score: number }> = [];
  for (const summary of await notes.list()) {
    const body = await bodies.of(notes, summary);
    if (body === undefined) continue;
    const title = foldWords(summary.title);
    if (!words.every((w) => title.includes(w) || body.includes(w))) continue;
    matched.push({ summary, score: words.reduce((sum, w) => sum + 3 * occurrences(title, w) + occurrences(body, w), 0) });
  }
  matched.sort((a, b) => b.score - a.score || (a.summary.updated < b.summary.updated ? 1 : -1));
  // The page's entries are read once more, for their snippets and as they stand now.
  const hits: SearchHitView[] = [];
  for (const { summary, score } of matched.slice(0, MAX_HITS)) {
    const note = await notes.get(summary.id);
    if (note) hits.push({ ...listItem(note), score, snippet: snippet(note.content, words[0] as string) });
  }
  return hits;
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
