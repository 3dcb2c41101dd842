/**
 * A keyword SearchIndex over notes held in memory: capability `full-text` only (words, "phrases",
 * prefix*, -exclusions, a OR b; case and diacritics folded; title hits ranked first). The kernel
 * refuses regex, metadata filters and semantic modes before they reach it. It can index its own
 * store's notes or, configured as a vault's search backend, another store's: `reconcile`
 * catches it up with that store at every open.
 */
import type { Note, ReconcileReport, ReconcileSource, SearchHit, SearchIndex, SearchPage, SearchQuery } from '../../kernel/index.js';

interface Entry {
  note: Note;
  title: string;
  text: string;
}

interface Clause {
  terms: Array<{ word: string; prefix: boolean }>;
  phrase: boolean;
  negated: boolean;
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
    for (const id of [...this.entries.keys()]) if (!present.has(id)) (this.entries.delete(id), (report.removed += 1));
    for (const summary of listed) {
      if (this.entries.get(summary.id)?.note.contentHash === summary.contentHash) {
        report.unchanged += 1;
        continue;
      }
      const note = await source.get(summary.id);
      if (note) (await this.upsert(note), (report.upserted += 1));
    }
    return report;
  }

  async search(query: SearchQuery): Promise<SearchPage> {
    const alternatives = parse(query.text);
    const scored: Array<{ entry: Entry; score: number }> = [];
    for (const entry of this.entries.values()) {
      if (query.type !== undefined && entry.note.type !== query.type) continue;
      const score = alternatives.length ? Math.max(0, ...alternatives.map((clauses) => scoreOf(entry, clauses))) : 1;
      if (score > 0) scored.push({ entry, score });
    }
    scored.sort((a, b) => b.score - a.score || (a.entry.note.updated < b.entry.note.updated ? 1 : -1) || (a.entry.note.id < b.entry.note.id ? -1 : 1));
    const offset = query.offset ?? 0;
    const hits: SearchHit[] = scored.slice(offset, offset + query.limit).map(({ entry, score }) => ({
      id: entry.note.id,
      score,
      snippet: snippetOf(entry.note.content, alternatives.flat()),
    }));
    return { hits, total: scored.length };
  }

  async close(): Promise<void> {}
}

/** Lower case without diacritics, so "CAFÉ" finds "café". */
function fold(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

const WORD = /[\p{L}\p{N}]+/gu;

/** `a b OR c "d e" -f g*` → alternatives (split at OR), each a list of clauses that must all hold. Never throws. */
function parse(text: string): Clause[][] {
  const alternatives: Clause[][] = [[]];
  for (const [, negated, phrase, bare] of fold(text).matchAll(/(-?)(?:"([^"]*)"?|(\S+))/g)) {
    if (bare === 'or' && !negated) {
      alternatives.push([]);
      continue;
    }
    const source = phrase ?? bare ?? '';
    const terms = [...source.matchAll(WORD)].map((m) => ({ word: m[0], prefix: false }));
    if (terms.length === 0) continue;
    if (phrase === undefined && source.endsWith('*')) (terms[terms.length - 1] as { prefix: boolean }).prefix = true;
    alternatives[alternatives.length - 1]!.push({ terms, phrase: phrase !== undefined, negated: negated === '-' });
  }
  return alternatives.filter((clauses) => clauses.some((c) => !c.negated));
}

function scoreOf(entry: Entry, clauses: readonly Clause[]): number {
  let score = 0;
  for (const clause of clauses) {
    const inTitle = matches(entry.title, clause);
    const inText = matches(entry.text, clause);
    if (clause.negated) {
      if (inTitle || inText) return 0;
      continue;
    }
    if (!inTitle && !inText) return 0;
    score += (inTitle ? 3 : 0) + (inText ? 1 : 0);
  }
  return score;
}

function matches(folded: string, clause: Clause): boolean {
  if (!clause.phrase && clause.terms.length > 1) return clause.terms.every((t) => matches(folded, { terms: [t], phrase: false, negated: false }));
  const pattern = clause.terms.map((t) => `${escape(t.word)}${t.prefix ? '[\\p{L}\\p{N}]*' : ''}`).join('[^\\p{L}\\p{N}]+');
  return new RegExp(`(?<![\\p{L}\\p{N}])(?:${pattern})(?![\\p{L}\\p{N}])`, 'u').test(folded);
}

/** About 160 characters around the first match, matched words wrapped in <mark>. */
function snippetOf(content: string, clauses: readonly Clause[]): string {
  const words = clauses.filter((c) => !c.negated).flatMap((c) => c.terms);
  const folded = fold(content);
  const first = words.map((t) => folded.search(new RegExp(escape(t.word), 'u'))).filter((i) => i >= 0);
  const start = first.length ? Math.max(0, Math.min(...first) - 60) : 0;
  const excerpt = content.slice(start, start + 160);
  if (!words.length) return excerpt;
  // Folding keeps one character per letter for the scripts this example serves, so offsets line up.
  const marks = new RegExp(`(?<![\\p{L}\\p{N}])(?:${words.map((t) => `${escape(t.word)}${t.prefix ? '[\\p{L}\\p{N}]*' : ''}`).join('|')})(?![\\p{L}\\p{N}])`, 'gu');
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

function escape(word: string): string {
  return word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
