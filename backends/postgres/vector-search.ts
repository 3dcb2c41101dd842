/**
 * Search by meaning on the notes' own database: `semantic` ranks notes by their best passage's
 * cosine among the `candidates` nearest passages of the vault (pgvector HNSW, iterative scan so a
 * vault sharing the schema with others still gets its own nearest), under `minSimilarity` left
 * out; `hybrid` (the default) fuses that with the keyword ranking of search.ts by scoreFusion,
 * exactly as hybrid-search fuses its legs (toolkit/embedding/fusion.ts, decision 037). `keyword`
 * and queries without words are search.ts's. A note is keyword-searchable when its write commits
 * and searchable by meaning once the embedding queue (vectors.ts) has reached it; until every
 * note of the vault has, a page says how many have (`vectors`, `notice`).
 */
import { ValidationError } from '../../kernel/errors.js';
import type { BackgroundReport, Note, SearchHit, SearchIndex, SearchPage, SearchQuery } from '../../kernel/index.js';
import type { Embedder } from '../../toolkit/embedding/embedder.js';
import { FUSION_DEPTH, KEYWORD_WEIGHT, type RankedList, scoreFusion } from '../../toolkit/embedding/fusion.js';
import { embedderDownNotice, type QueryVectors, searchOrKeywords } from '../../toolkit/embedding/query-vectors.js';
import {
  hasTerms,
  markableWords,
  parseQuery,
  semanticSentence,
  tsExpressions,
  type ParsedQuery,
} from '../../toolkit/search/keyword-expressions.js';
import { markedSnippet } from '../../toolkit/search/marked-snippet.js';
import { inTransaction, readQuery, storeError } from './driver.js';
import { SUMMARY_COLUMNS, type NoteRow, summaryOf } from './note-rows.js';
import { noteWhere, Params, type PgKeywordIndex } from './search.js';
import { type EmbedWorker, vectorLiteral } from './vectors.js';

export interface VectorSearchOptions {
  keyword: PgKeywordIndex;
  worker: EmbedWorker;
  embedder: Embedder;
  queryVectors: QueryVectors;
  minSimilarity: number;
  candidates: number;
  /** How long `finishBackground` waits for notes another process has claimed. */
  finishWaitMs?: number;
}

interface Leg {
  ids: string[];
  scores: number[];
  factors: number[];
  /** Per id, the passage that matched (semantic leg). */
  passage: Map<string, { heading: string; text: string }>;
  /** Every match, not only the ids fetched. */
  total: number;
}

export class PgVectorIndex implements SearchIndex {
  constructor(
    private readonly o: VectorSearchOptions & { S: string; vault: string; url: string | undefined; root: string },
  ) {}

  async search(query: SearchQuery): Promise<SearchPage> {
    const mode = query.mode ?? 'hybrid';
    const parsed = parseQuery(query.text);
    if (mode === 'keyword' || !hasTerms(parsed)) return this.o.keyword.search({ ...query, mode: 'keyword' });
    if (query.sort?.some((s) => s.field !== 'score'))
      throw new ValidationError(
        `sort: a ${mode} search is ranked by its fused score; sort by fields with mode "keyword".`,
        { field: 'sort', mode },
      );
    // The query the embedder cannot embed is answered by keyword, with a notice (decision 036).
    const { page, embedderDown } = await searchOrKeywords(query, (q) =>
      q.mode === 'keyword' ? this.o.keyword.search(q) : this.ranked(q, mode, parsed),
    );
    if (embedderDown !== undefined) return { ...page, notice: embedderDownNotice(embedderDown) };
    return this.withProgress(page);
  }

  private async ranked(query: SearchQuery, mode: 'semantic' | 'hybrid', parsed: ParsedQuery): Promise<SearchPage> {
    const vector = await this.o.queryVectors.of(semanticSentence(query.text));
    const offset = query.offset ?? 0;
    const depth = Math.max(FUSION_DEPTH, offset + query.limit);
    try {
      const [sem, kw] = await Promise.all([
        this.semanticLeg(query, parsed, vector),
        mode === 'hybrid' ? this.keywordLeg(query, parsed, depth) : undefined,
      ]);
      const lists: RankedList[] = [];
      let total = sem.total;
      if (kw) {
        const inKw = new Set(kw.ids);
        const outside = sem.ids.filter((id) => !inKw.has(id));
        // Semantic hits past the keyword page may still be keyword matches: asked, not guessed.
        const alsoKw = kw.total > kw.ids.length ? await this.keywordMatches(parsed, outside) : new Set<string>();
        const question = parsed.question;
        const keep = (id: string) => question || inKw.has(id) || alsoKw.has(id);
        const kept = sem.ids.map((id, i) => ({ id, score: sem.scores[i]! })).filter((h) => keep(h.id));
        lists.push({ ids: kw.ids, scores: kw.scores, factors: kw.factors, weight: KEYWORD_WEIGHT });
        lists.push({ ids: kept.map((h) => h.id), scores: kept.map((h) => h.score), weight: 1 - KEYWORD_WEIGHT });
        total = kw.total + (question ? outside.filter((id) => !alsoKw.has(id)).length : 0);
      } else lists.push({ ids: sem.ids, scores: sem.scores, weight: 1 });
      const fused = scoreFusion(lists, offset + query.limit, depth).items.slice(offset);
      return { hits: await this.hits(fused, sem, parsed), total };
    } catch (err) {
      throw storeError(err, this.o.url);
    }
  }

  /**
   * The nearest passages' notes, best passage each, filtered as every mode filters. A note edited
   * since its passages were embedded is left out until they are again: its old text must not find it.
   */
  private async semanticLeg(query: SearchQuery, parsed: ParsedQuery, vector: Float32Array): Promise<Leg> {
    const p = new Params();
    const qv = p.add(vectorLiteral(vector));
    const where = noteWhere(this.o.S, this.o.vault, query, parsed, p);
    const sql = `WITH near AS (
        SELECT note_id, heading, text, 1 - (embedding <=> ${qv}::vector) AS score FROM ${this.o.S}.passages
        WHERE vault = ${p.add(this.o.vault)} ORDER BY embedding <=> ${qv}::vector LIMIT ${p.add(this.o.candidates)})
      SELECT DISTINCT ON (near.note_id) near.note_id AS id, near.score::float8 AS score, near.heading, near.text
      FROM near JOIN ${this.o.S}.notes n ON n.vault = ${p.add(this.o.vault)} AND n.id = near.note_id
      WHERE near.score >= ${p.add(this.o.minSimilarity)} AND n.embedded_hash = n.content_hash AND ${where.join(' AND ')}
      ORDER BY near.note_id, near.score DESC`;
    const rows = await inTransaction(this.o.keyword.pool, async (client) => {
      // HNSW keeps ef_search candidates; iterative scan goes on past other vaults' passages.
      await client.query(`SET LOCAL hnsw.ef_search = ${Math.max(40, this.o.candidates)}`);
      await client.query('SET LOCAL hnsw.iterative_scan = relaxed_order');
      return (await client.query<{ id: string; score: number; heading: string; text: string }>(sql, p.values)).rows;
    });
    rows.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : 1));
    return {
      ids: rows.map((r) => r.id),
      scores: rows.map((r) => Number(r.score)),
      factors: [],
      passage: new Map(rows.map((r) => [r.id, { heading: r.heading, text: r.text }])),
      total: rows.length,
    };
  }

  /**
   * The keyword ranking's first `depth`, with each note's share as hybrid-search computes it:
   * ts_rank over the best of its tier, notes holding every word of a question in the upper half;
   * the factor is the share of the question's terms the note holds.
   */
  private async keywordLeg(query: SearchQuery, parsed: ParsedQuery, depth: number): Promise<Leg> {
    const p = new Params();
    const cfg = `'${this.o.S}.stemmed'`;
    const where = noteWhere(this.o.S, this.o.vault, query, parsed, p);
    const expressions = tsExpressions(parsed)!;
    const match = p.add(expressions.match);
    where.push(`n.tsv @@ to_tsquery(${cfg}, ${match})`);
    const tier =
      expressions.every === undefined ? '0' : `(n.tsv @@ to_tsquery(${cfg}, ${p.add(expressions.every)}))::int`;
    const terms = expressions.terms;
    const coverage = terms
      ? `(${terms.map((t) => `(n.tsv @@ to_tsquery(${cfg}, ${p.add(t)}))::int`).join(' + ')})::float8 / ${terms.length}`
      : '1::float8';
    const sql = `SELECT n.id, ts_rank('{0.1, 0, 0.3, 1.0}', n.tsv, to_tsquery(${cfg}, ${match}), 1)::float8 AS score,
        ${tier} AS tier, ${coverage} AS coverage, count(*) OVER () AS total
      FROM ${this.o.S}.notes n WHERE ${where.join(' AND ')}
      ORDER BY tier DESC, score DESC, n.id LIMIT ${p.add(depth)}`;
    const rows = (
      await readQuery<{ id: string; score: number; tier: number; coverage: number; total: string }>(
        this.o.keyword.pool,
        sql,
        p.values,
      )
    ).rows;
    const best = (t: number) => Math.max(0, ...rows.filter((r) => r.tier === t).map((r) => Number(r.score)));
    const [best0, best1] = [best(0), best(1)];
    const anyAll = rows.some((r) => r.tier === 1);
    const share = (r: { score: number; tier: number }) => {
      const within = (b: number) => (b > 0 ? Number(r.score) / b : 0);
      if (!anyAll) return within(best0);
      return r.tier === 1 ? 0.5 + 0.5 * within(best1) : 0.5 * within(best0);
    };
    return {
      ids: rows.map((r) => r.id),
      scores: rows.map(share),
      factors: rows.map((r) => Number(r.coverage)),
      passage: new Map(),
      total: rows.length ? Number(rows[0]!.total) : 0,
    };
  }

  /** Which of these notes the keyword query matches. */
  private async keywordMatches(parsed: ParsedQuery, ids: string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const p = new Params();
    const sql = `SELECT n.id FROM ${this.o.S}.notes n WHERE n.vault = ${p.add(this.o.vault)} AND n.id = ANY(${p.add(ids)}::text[])
      AND n.tsv @@ to_tsquery('${this.o.S}.stemmed', ${p.add(tsExpressions(parsed)!.match)})`;
    return new Set((await readQuery<{ id: string }>(this.o.keyword.pool, sql, p.values)).rows.map((r) => r.id));
  }

  /** The page's hits with their notes; a note found only by meaning shows the passage that was. */
  private async hits(items: Array<{ id: string; score: number }>, sem: Leg, parsed: ParsedQuery): Promise<SearchHit[]> {
    if (items.length === 0) return [];
    const rows = (
      await readQuery<Omit<NoteRow, 'text'>>(
        this.o.keyword.pool,
        `SELECT ${SUMMARY_COLUMNS}, body FROM ${this.o.S}.notes WHERE vault = $1 AND id = ANY($2::text[])`,
        [this.o.vault, items.map((i) => i.id)],
      )
    ).rows;
    const byId = new Map(rows.map((r) => [r.id, r]));
    const words = markableWords(parsed);
    return items.flatMap((item) => {
      const row = byId.get(item.id);
      if (!row) return [];
      const marked = markedSnippet(row.title, row.body, words);
      const passage = sem.passage.get(item.id);
      const snippet =
        marked.includes('<mark>') || !passage ? marked : markedSnippet(passage.heading, passage.text, words);
      return [{ id: item.id, score: item.score, snippet, note: summaryOf(row, this.o.root) }];
    });
  }

  /** A page ranked while some notes still wait for vectors says how many are ready. */
  private async withProgress(page: SearchPage): Promise<SearchPage> {
    const waiting = await this.o.worker.waiting();
    if (waiting === 0) return page;
    const { rows } = await readQuery<{ n: string }>(
      this.o.keyword.pool,
      `SELECT count(*) AS n FROM ${this.o.S}.notes WHERE vault = $1`,
      [this.o.vault],
    );
    const total = Number(rows[0]!.n);
    const ready = total - waiting;
    const failing = this.o.worker.failure ? ` (the embedder fails: ${this.o.worker.failure})` : '';
    return {
      ...page,
      vectors: { ready, total },
      notice: `Meaning is searched in ${ready} of ${total} notes so far${failing}; the rest are found by their words only.`,
    };
  }

  /** Wakes the queue: a note this process wrote is embedded now, not at the next poll. */
  async upsert(_note: Note): Promise<void> {
    void this.o.worker.wake();
  }

  /** The passages went with their row (a cascading key). */
  async remove(_id: string): Promise<void> {}

  /** Works the queue until no note of the vault waits, also for those other processes hold (up to `finishWaitMs`). */
  async finishBackground(): Promise<BackgroundReport> {
    const started = Date.now();
    const until = started + (this.o.finishWaitMs ?? 60_000);
    for (;;) {
      await this.o.worker.wake();
      if ((await this.o.worker.waiting()) === 0 || Date.now() > until) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return { done: this.o.worker.done, ms: Date.now() - started };
  }

  /** Stops the queue and releases the embedder (its threads); the store closes the pool. */
  async close(): Promise<void> {
    await this.o.worker.close();
    await this.o.embedder.close?.();
  }
}
