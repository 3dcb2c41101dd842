/**
 * A keyword SearchIndex over notes held in memory: capability `full-text` only. The query is the
 * toolkit's parsed tree (`parseQuery`, docs/search-syntax.md): a question matches any content word,
 * notes holding every one first; syntax means what it spells. Title hits rank first. The kernel
 * refuses regex, metadata filters and semantic modes before they reach it. It can index its own
 * store's notes or, configured as a vault's search backend, another store's: `reconcile`
 * catches it up with that store at every open.
 */
import {
  foldWords,
  parseQuery,
  questionTerms,
  requiredGroups,
  type Note,
  type ParsedQuery,
  type QueryTerm,
  type ReconcileReport,
  type ReconcileSource,
  type SearchHit,
  type SearchIndex,
  type SearchPage,
  type SearchQuery,
} from 'notekernel';

interface Entry {
  note: Note;
  title: string;
  text: string;
}

export class MemoryKeywordIndex implements SearchIndex {
  private readonly entries = new Map<string, Entry>();

  async upsert(note: Note): Promise<void> {
    this.entries.set(note.id, { note: structuredClone(note), title: fold(note.title), text: fold(note.content) });
  }

  async remove(id: string): Promise<void> {
    this.entries.delete(id);
  }

  async reconcile(source: ReconcileSource): Promise<ReconcileReport> {
    const report: ReconcileReport = { upserted: 0, removed: 0, unchanged: 0 };
    const listed = await source.list();
    const present = new Set(listed.map((summary) => summary.id));
    for (const id of [...this.entries.keys()]) if (!present.has(id)) this.entries.delete(id), (report.removed += 1);
    for (const summary of listed) {
      if (this.entries.get(summary.id)?.note.contentHash === summary.contentHash) {
        report.unchanged += 1;
        continue;
      }
      const note = await source.get(summary.id);
      if (note) await this.upsert(note), (report.upserted += 1);
    }
    return report;
  }

  async search(query: SearchQuery): Promise<SearchPage> {
    const parsed = parseQuery(query.text);
    const asked = questionTerms(parsed);
    const scored: Array<{ entry: Entry; score: number }> = [];
    for (const entry of this.entries.values()) {
      if (query.type !== undefined && entry.note.type !== query.type) continue;
      const score = parsed.all.length
        ? asked
          ? questionScore(entry, asked)
          : syntaxScore(entry, parsed)
        : parsed.none.some((t) => termScore(entry, t) > 0)
          ? 0
          : 1;
      if (score > 0) scored.push({ entry, score });
    }
    scored.sort(
      (a, b) =>
        b.score - a.score ||
        (a.entry.note.updated < b.entry.note.updated ? 1 : -1) ||
        (a.entry.note.id < b.entry.note.id ? -1 : 1),
    );
    const offset = query.offset ?? 0;
    const marked = asked ?? requiredGroups(parsed).flat();
    const hits: SearchHit[] = scored.slice(offset, offset + query.limit).map(({ entry, score }) => ({
      id: entry.note.id,
      score,
      snippet: snippetOf(entry.note.content, marked),
    }));
    return { hits, total: scored.length };
  }

  async close(): Promise<void> {}
}

/** Case and letters folded as every index folds them (`Łódź` → `lodz`). */
const fold = foldWords;

/** Per term: 3 in the title, 1 in the text. */
function termScore(entry: Entry, term: QueryTerm): number {
  return (matches(entry.title, term) ? 3 : 0) + (matches(entry.text, term) ? 1 : 0);
}

/** Any term matches; a note holding every one scores above any that holds some (one tier per count). */
function questionScore(entry: Entry, terms: readonly QueryTerm[]): number {
  const scores = terms.map((t) => termScore(entry, t));
  const held = scores.filter((s) => s > 0).length;
  if (held === 0) return 0;
  return (held === terms.length ? 1_000 : 0) + scores.reduce((a, b) => a + b, 0);
}

/** Every group holds (any of its terms), no excluded term appears. */
function syntaxScore(entry: Entry, query: ParsedQuery): number {
  if (query.none.some((t) => termScore(entry, t) > 0)) return 0;
  let score = 0;
  for (const group of requiredGroups(query)) {
    const best = Math.max(...group.map((t) => termScore(entry, t)));
    if (best === 0) return 0;
    score += best;
  }
  return score;
}

function matches(folded: string, term: QueryTerm): boolean {
  const pattern = term.words
    .map((w, i) => `${escapeRegExp(w)}${term.prefix && i === term.words.length - 1 ? '[\\p{L}\\p{N}]*' : ''}`)
    .join('[^\\p{L}\\p{N}]+');
  return new RegExp(`(?<![\\p{L}\\p{N}])(?:${pattern})(?![\\p{L}\\p{N}])`, 'u').test(folded);
}

/** About 160 characters around the first match, matched words wrapped in <mark>. */
function snippetOf(content: string, terms: readonly QueryTerm[]): string {
  const words = terms.flatMap((t) =>
    t.words.map((word, i) => ({ word, prefix: t.prefix && i === t.words.length - 1 })),
  );
  const folded = fold(content);
  const first = words.map((t) => folded.search(new RegExp(escapeRegExp(t.word), 'u'))).filter((i) => i >= 0);
  const start = first.length ? Math.max(0, Math.min(...first) - 60) : 0;
  const excerpt = content.slice(start, start + 160);
  if (!words.length) return excerpt;
  // Folding keeps one character per letter for the scripts this example serves, so offsets line up.
  const marks = new RegExp(
    `(?<![\\p{L}\\p{N}])(?:${words.map((t) => `${escapeRegExp(t.word)}${t.prefix ? '[\\p{L}\\p{N}]*' : ''}`).join('|')})(?![\\p{L}\\p{N}])`,
    'gu',
  );
  const foldedExcerpt = fold(excerpt);
  if (foldedExcerpt.length !== excerpt.length) return excerpt;
  let out = '';
  let last = 0;
  for (const m of foldedExcerpt.matchAll(marks)) {
    out += `${excerpt.slice(last, m.index)}<mark>${excerpt.slice(m.index, m.index + m[0].length)}</mark>`;
    last = m.index + m[0].length;
  }
  return out + excerpt.slice(last);
}

function escapeRegExp(word: string): string {
  return word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
