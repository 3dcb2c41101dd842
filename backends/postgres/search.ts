/**
 * Keyword search on the notes table itself: each row carries its weighted `tsvector` (title A,
 * body D, built from folded words and stemmed by the schema's `stemmed` configuration), written
 * in the same transaction as the note. A note is found by every process the moment its write
 * commits, and there is no second index to keep in step: `upsert` and `remove` have nothing to
 * do. The query is the kernel's parsed tree (toolkit/search), compiled to tsquery as
 * hybrid-search's postgres engine compiles it: a question matches any content word, notes
 * holding every word first, then by `ts_rank` (title × 10, body × 1, over 1 + log length).
 * Metadata predicates, time windows, a content phrase and sorts: search-filters.ts.
 */
import type {
  BackgroundReport,
  Logger,
  Note,
  SearchHit,
  SearchIndex,
  SearchPage,
  SearchQuery,
} from '../../kernel/index.js';
import { CapabilityError } from '../../kernel/errors.js';
import {
  hasTerms,
  markableWords,
  type ParsedQuery,
  parseQuery,
  tsExcluded,
  tsExpressions,
} from '../../toolkit/search/keyword-expressions.js';
import { markedSnippet } from '../../toolkit/search/marked-snippet.js';
import { type PgPool, readQuery, storeError } from './driver.js';
import { filterTerms, orderTerms } from './search-filters.js';
import { SUMMARY_COLUMNS, type NoteRow, summaryOf } from './note-rows.js';

interface HitRow extends Omit<NoteRow, 'body'> {
  body: string;
  score: number;
  total: string;
}

/** `$n` placeholders in the order values are added. */
export class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

export class PgKeywordIndex implements SearchIndex {
  constructor(
    /** Shared with the vector search, which reads the same rows. */
    readonly pool: PgPool,
    private readonly S: string,
    private readonly vault: string,
    private readonly url: string | undefined,
    private readonly logger: Logger,
    private readonly root: string,
  ) {}

  async search(query: SearchQuery): Promise<SearchPage> {
    // Without vectors a search by meaning would silently be a keyword search: refused instead.
    if (query.mode === 'semantic' || query.mode === 'hybrid')
      throw new CapabilityError(
        `Search mode "${query.mode}" needs vectors, which this postgres vault has off: set storage.options.vectors: true (or an embedder).`,
        { backend: 'postgres', capability: 'vectors', option: 'vectors' },
      );
    const parsed = parseQuery(query.text);
    const cfg = `'${this.S}.stemmed'`;
    const p = new Params();
    const where = noteWhere(this.S, this.vault, query, parsed, p);
    let score = '0::float8';
    let order = 'n.updated DESC, n.id';
    if (hasTerms(parsed)) {
      const expressions = tsExpressions(parsed)!;
      const match = p.add(expressions.match);
      where.push(`n.tsv @@ to_tsquery(${cfg}, ${match})`);
      score = `ts_rank('{0.1, 0, 0.3, 1.0}', n.tsv, to_tsquery(${cfg}, ${match}), 1)::float8`;
      const tier =
        expressions.every === undefined ? '' : `(n.tsv @@ to_tsquery(${cfg}, ${p.add(expressions.every)}))::int DESC, `;
      order = `${tier}score DESC, n.id`;
    }
    order = orderTerms(this.S, query.sort, order, p);
    const sql = `SELECT ${SUMMARY_COLUMNS.split(', ')
      .map((c) => `n.${c}`)
      .join(', ')}, n.body, ${score} AS score, count(*) OVER () AS total
      FROM ${this.S}.notes n WHERE ${where.join(' AND ')}
      ORDER BY ${order} LIMIT ${p.add(query.limit)} OFFSET ${p.add(query.offset ?? 0)}`;
    let rows: HitRow[];
    try {
      rows = (await readQuery<HitRow>(this.pool, sql, p.values)).rows;
    } catch (err) {
      throw storeError(err, this.url);
    }
    const words = markableWords(parsed);
    const hits: SearchHit[] = rows.map((row) => ({
      id: row.id,
      score: Number(row.score),
      snippet: markedSnippet(row.title, row.body, words),
      note: summaryOf(row, this.root),
    }));
    let total = rows.length ? Number(rows[0]!.total) : 0;
    // Past the last page the window count is gone: count the matches without paging.
    if (rows.length === 0 && (query.offset ?? 0) > 0)
      total = (await this.search({ ...query, offset: 0, limit: 1 })).total;
    return { hits, total };
  }

  /** The row's search vector was written with the row, in its transaction: nothing to re-sync. */
  async upsert(_note: Note): Promise<void> {}

  /** The vector went with its row. */
  async remove(_id: string): Promise<void> {}

  /** Nothing runs behind this index's answers: without vectors there is nothing to embed. */
  async finishBackground(): Promise<BackgroundReport> {
    return { done: 0, ms: 0 };
  }

  /** The store's pool is the index's: the store closes it. */
  async close(): Promise<void> {
    this.logger.debug('postgres search index closed with its store');
  }
}

/** WHERE terms every search mode applies to a note `n`: its vault, type, exclusions and structured filters. */
export function noteWhere(S: string, vault: string, query: SearchQuery, parsed: ParsedQuery, p: Params): string[] {
  const where = [`n.vault = ${p.add(vault)}`];
  if (query.type !== undefined) where.push(`n.type = ${p.add(query.type)}`);
  const excluded = tsExcluded(parsed);
  if (excluded !== undefined) where.push(`NOT (n.tsv @@ to_tsquery('${S}.stemmed', ${p.add(excluded)}))`);
  where.push(...filterTerms(S, query, p));
  return where;
}
