/**
 * How the postgres engine answers a SearchQuery: one SQL statement per search. The same modes
 * and the same contract as the embedded engine (`../search.ts`): `keyword` ranks notes by their
 * best chunk's `ts_rank` (title × 10, heading × 3, text × 1; divided by 1 + log of the passage's
 * length, as bm25 favours the shorter of two passages with the word); `semantic` by their best chunk's
 * cosine among the `candidates` nearest passages (pgvector HNSW), under `minSimilarity` left
 * out; `hybrid` fuses both per note by their scores, each divided by its leg's best, the keyword
 * leg weighing KEYWORD_WEIGHT (embedding/fusion.ts), equal scores to the keyword list.
 * Words are stemmed by the schema's own configuration (pg-schema.ts `tsConfig`).
 */
import type { SearchHit, SearchPage, SearchQuery } from '../../../kernel/index.js';
import { FUSION_DEPTH, KEYWORD_WEIGHT } from '../../../toolkit/embedding/fusion.js';
import {
  hasTerms,
  markableWords,
  parseQuery,
  semanticSentence,
  tsExcluded,
  tsExpressions,
} from '../../../toolkit/search/keyword-expressions.js';
import type { PgPool } from './pg-driver.js';
import { tsConfig, vectorLiteral } from './pg-schema.js';
import { markedSnippet } from '../../../toolkit/search/marked-snippet.js';

export interface PgSearchState {
  pool: PgPool;
  schema: string;
  /** The query's vector (embedded by the caller) for `semantic` and `hybrid`. */
  embedQuery(text: string): Promise<Float32Array>;
  minSimilarity: number;
  fusionKeywords: 'all' | 'any';
  /** Nearest passages the semantic leg ranks (HNSW `LIMIT`). */
  candidates: number;
}

interface Row {
  note_id: string;
  score: number;
  heading: string | null;
  text: string | null;
  total: string;
}

/** `$n` placeholders in the order values are added. */
class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

export async function pgSearch(state: PgSearchState, query: SearchQuery): Promise<SearchPage> {
  const s = `"${state.schema}"`;
  const parsed = parseQuery(query.text);
  const p = new Params();
  let typeParam: string | undefined;
  const excluded = tsExcluded(parsed);
  const accept = (alias: string, type = (typeParam ??= p.add(query.type ?? null))) =>
    `(${type}::text IS NULL OR ${alias}.type = ${type})` +
    (excluded === undefined
      ? ''
      : ` AND NOT EXISTS (SELECT 1 FROM ${s}.chunks x WHERE x.note_id = ${alias}.id AND x.tsv @@ to_tsquery('${tsConfig(s)}', ${p.add(excluded)}))`);
  // Without a filter the notes table has nothing to say: joining it cost a scan of every note.
  const filtered = query.type !== undefined || excluded !== undefined;
  const noteFilter = (alias: string, noteId: string) =>
    filtered ? `JOIN ${s}.notes ${alias} ON ${alias}.id = ${noteId}` : '';
  const where = (alias: string) => (filtered ? ` AND ${accept(alias)}` : '');
  const limit = p.add(query.limit);
  const offset = p.add(query.offset ?? 0);

  let sql: string;
  if (!hasTerms(parsed)) {
    sql = `SELECT n.id AS note_id, 0 AS score, c.heading, c.text, count(*) OVER () AS total
      FROM ${s}.notes n LEFT JOIN ${s}.chunks c ON c.note_id = n.id AND c.seq = 0
      WHERE ${accept('n')} ORDER BY n.updated DESC, n.id LIMIT ${limit} OFFSET ${offset}`;
  } else {
    const mode = query.mode ?? 'hybrid';
    const ctes: string[] = [];
    const legs: string[] = [];
    if (mode !== 'semantic') {
      const expressions = tsExpressions(parsed)!;
      // `fusionKeywords: all` keeps hybrid's keyword leg to passages holding every word of a question.
      const strict = mode === 'hybrid' && state.fusionKeywords === 'all' && expressions.every !== undefined;
      const kq = p.add(strict ? expressions.every : expressions.match);
      // A question's passages holding every word rank first, as in the embedded engine.
      const tier =
        expressions.every !== undefined && !strict
          ? `(c.tsv @@ to_tsquery('${tsConfig(s)}', ${p.add(expressions.every)}))::int`
          : '0';
      // The share of a question's terms the passage holds: the keyword leg's factor in the fusion.
      const terms = strict ? undefined : expressions.terms;
      const coverage = terms
        ? `(${terms.map((t) => `(c.tsv @@ to_tsquery('${tsConfig(s)}', ${p.add(t)}))::int`).join(' + ')})::float8 / ${terms.length}`
        : '1';
      ctes.push(`kw AS (
        SELECT DISTINCT ON (c.note_id) c.note_id, c.id AS chunk_id, ${tier} AS tier, ${coverage} AS coverage,
          ts_rank('{0.1, 0, 0.3, 1.0}', c.tsv, to_tsquery('${tsConfig(s)}', ${kq}), 1) AS score
        FROM ${s}.chunks c ${noteFilter('n', 'c.note_id')}
        WHERE c.tsv @@ to_tsquery('${tsConfig(s)}', ${kq})${where('n')}
        ORDER BY c.note_id, tier DESC, score DESC, c.id)`);
      // Notes whose passage holds every word are lifted above the rest, so scores keep the order (as search.ts does).
      ctes.push(`kw_lift AS (SELECT CASE WHEN max(score) FILTER (WHERE tier = 0) >= min(score) FILTER (WHERE tier = 1)
        THEN max(score) FILTER (WHERE tier = 0) - min(score) FILTER (WHERE tier = 1) + 1 ELSE 0 END AS lift FROM kw)`);
      // The fusion's share: bm25 over its tier's best, notes holding every word in the upper half (search.ts notesOf).
      const within = (t: number) => `score / nullif(max(score) FILTER (WHERE tier = ${t}) OVER (), 0)`;
      ctes.push(`kw_ranked AS (SELECT note_id, chunk_id, score + tier * (SELECT lift FROM kw_lift) AS score, coverage,
        CASE WHEN max(tier) OVER () = 0 THEN ${within(0)} WHEN tier = 1 THEN 0.5 + 0.5 * ${within(1)} ELSE 0.5 * ${within(0)} END AS share,
        row_number() OVER (ORDER BY tier DESC, score DESC, note_id) AS rank FROM kw)`);
      legs.push('kw_ranked');
    }
    if (mode !== 'keyword') {
      const qv = p.add(vectorLiteral(await state.embedQuery(semanticSentence(query.text))));
      ctes.push(`near AS (
        SELECT v.hash, 1 - (v.embedding <=> ${qv}::vector) AS score FROM ${s}.vectors v
        ORDER BY v.embedding <=> ${qv}::vector LIMIT ${p.add(state.candidates)})`);
      ctes.push(`sem AS (
        SELECT DISTINCT ON (c.note_id) c.note_id, c.id AS chunk_id, near.score
        FROM near JOIN ${s}.chunks c ON c.hash = near.hash ${noteFilter('n', 'c.note_id')}
        WHERE near.score >= ${p.add(state.minSimilarity)}${where('n')}
        ORDER BY c.note_id, near.score DESC, c.id)`);
      ctes.push(
        `sem_ranked AS (SELECT note_id, chunk_id, score, score AS share, 1 AS coverage, row_number() OVER (ORDER BY score DESC, note_id) AS rank FROM sem)`,
      );
      legs.push('sem_ranked');
    }
    if (legs.length === 2) {
      const weight = p.add(KEYWORD_WEIGHT);
      const depth = p.add(Math.max(FUSION_DEPTH, (query.offset ?? 0) + query.limit));
      // Each leg's share divided by its best, weighted, as embedding/fusion.ts computes it;
      // the keyword leg's chunk gives the snippet. A query spelling its syntax keeps to what its
      // keyword leg matched (search.ts).
      const share = (alias: string, best: string, w: string) =>
        `coalesce(CASE WHEN ${alias}.rank <= ${depth} THEN ${w} * ${alias}.coverage * greatest(${alias}.share, 0) / nullif(${best}, 0) END, 0)`;
      ctes.push(`ranked AS (
        SELECT coalesce(k.note_id, m.note_id) AS note_id, coalesce(k.chunk_id, m.chunk_id) AS chunk_id,
          ${share('k', 'kb.best', `${weight}::float8`)} + ${share('m', 'mb.best', `(1 - ${weight}::float8)`)} AS score,
          CASE WHEN k.rank IS NULL THEN 1 ELSE 0 END AS list, coalesce(k.rank, m.rank) AS rank
        FROM (kw_ranked k FULL JOIN sem_ranked m ON m.note_id = k.note_id)
          CROSS JOIN (SELECT max(share) AS best FROM kw_ranked) kb CROSS JOIN (SELECT max(share) AS best FROM sem_ranked) mb
        ${parsed.question ? '' : 'WHERE k.note_id IS NOT NULL'})`);
    } else {
      ctes.push(`ranked AS (SELECT note_id, chunk_id, score, 0 AS list, rank FROM ${legs[0]})`);
    }
    // The page is cut before its chunks' text is read: joined first, every ranked note's chunk was.
    ctes.push(`page AS (
      SELECT note_id, chunk_id, score, list, rank, count(*) OVER () AS total FROM ranked
      ORDER BY score DESC, list, rank, note_id LIMIT ${limit} OFFSET ${offset})`);
    sql = `WITH ${ctes.join(',\n')}
      SELECT r.note_id, r.score::float8 AS score, c.heading, c.text, r.total
      FROM page r JOIN ${s}.chunks c ON c.id = r.chunk_id
      ORDER BY r.score DESC, r.list, r.rank, r.note_id`;
  }
  const rows = (await state.pool.query<Row>(sql, p.values)).rows;
  const words = markableWords(parsed);
  const hits: SearchHit[] = rows.map((row) => ({
    id: row.note_id,
    score: Number(row.score),
    snippet: markedSnippet(row.heading ?? '', row.text ?? '', words),
  }));
  let total = rows.length ? Number(rows[0]!.total) : 0;
  // Past the last page the window count is gone: count the matches without paging.
  if (rows.length === 0 && (query.offset ?? 0) > 0)
    total = (await pgSearch(state, { ...query, offset: 0, limit: 1 })).total;
  return { hits, total };
}
