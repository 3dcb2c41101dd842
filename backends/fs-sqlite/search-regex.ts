/**
 * `regex: true`: a JavaScript regular expression over each note's title and content, bounded.
 * The pattern is checked here (length, syntax) so a bad one fails at once, naming it; the scan
 * runs in the sandbox process, where a pathological pattern can be stopped by its time budget.
 */
import type { SearchPage, SearchQuery } from '../../kernel/backend.js';
import { ValidationError } from '../../kernel/errors.js';
import { rowsByIds, toHit, type StatementCache } from './search-rows.js';
import { pageOf, planSearch } from './search-text.js';
import type { SqlSandbox } from './sql-sandbox.js';

export const MAX_PATTERN_LENGTH = 500;
export const DEFAULT_REGEX_TIMEOUT_MS = 5_000;
const ALLOWED_FLAGS = 'dimsuv';

export interface CompiledPattern {
  source: string;
  /** Without `g`/`y`: the scan adds its own. */
  flags: string;
}

/**
 * `source` (case-insensitive, `^`/`$` per line, unicode when the pattern allows it) or
 * `/source/flags` to choose the flags.
 */
export function compilePattern(text: string): CompiledPattern {
  if (text.length > MAX_PATTERN_LENGTH) {
    throw new ValidationError(
      `text: the regular expression is ${text.length} characters; at most ${MAX_PATTERN_LENGTH} are allowed.`,
      { field: 'text' },
    );
  }
  const slashed = text.length > 2 && text.startsWith('/') ? text.lastIndexOf('/') : -1;
  if (slashed > 0) {
    const flags = [...text.slice(slashed + 1)].filter((f) => f !== 'g' && f !== 'y').join('');
    if ([...flags].every((f) => ALLOWED_FLAGS.includes(f))) return tryCompile(text.slice(1, slashed), [flags], text);
  }
  // Unicode mode first (\p{L} works); patterns only valid without it (a lone "{") still compile.
  return tryCompile(text, ['imu', 'im'], text);
}

function tryCompile(source: string, candidates: string[], original: string): CompiledPattern {
  let last: unknown;
  for (const flags of candidates) {
    try {
      new RegExp(source, flags);
      return { source, flags };
    } catch (err) {
      last ??= err;
    }
  }
  const reason = last instanceof Error ? last.message : String(last);
  throw new ValidationError(`text: "${original}" is not a valid regular expression: ${reason}`, {
    field: 'text',
    pattern: original,
  });
}

interface RegexReply {
  total: number;
  hits: Array<{ id: string; score: number; snippet: string }>;
}

export async function searchRegex(cache: StatementCache, sandbox: SqlSandbox, query: SearchQuery): Promise<SearchPage> {
  if (query.sort?.length) {
    throw new ValidationError(
      'sort: a regex search orders by number of matches, then most recent; drop sort or the regex.',
      { field: 'sort' },
    );
  }
  const { limit, offset } = pageOf(query);
  const pattern = compilePattern(query.text);
  const plan = planSearch(query, { words: false });
  const terms = [...plan.terms];
  if (plan.match)
    terms.push(`n.rowid IN (SELECT rowid FROM notes_fts WHERE notes_fts MATCH ${plan.params.add(plan.match)})`);
  const timeoutMs = query.timeoutMs ?? DEFAULT_REGEX_TIMEOUT_MS;
  const reply = await sandbox.run<RegexReply>(
    {
      kind: 'regex',
      source: pattern.source,
      flags: pattern.flags,
      where: terms.length ? terms.join(' AND ') : '1',
      params: plan.params.values,
      limit,
      offset,
      maxPerNote: 1000,
      snippetChars: 80,
    },
    timeoutMs,
    `The regular expression /${pattern.source}/`,
  );
  const rows = rowsByIds(
    cache,
    reply.hits.map((h) => h.id),
  );
  const hits = reply.hits.flatMap((h) => {
    const row = rows.get(h.id);
    // A note deleted between the scan and now is simply left out.
    return row ? [{ ...toHit(row), score: h.score, snippet: h.snippet }] : [];
  });
  return { hits, total: reply.total };
}
