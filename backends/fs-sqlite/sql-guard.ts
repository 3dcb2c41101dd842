/**
 * The policy half of read-only SQL: a small SQLite lexer (strings, quoted identifiers and
 * comments are skipped exactly as SQLite skips them, so `/* ; *\/` or `'--'` cannot hide or fake
 * a statement) and the rules checked on its tokens. No regular expression decides anything here.
 * The other half runs where the statement is prepared: better-sqlite3 refuses a second statement,
 * and `stmt.reader` / `stmt.readonly` must both hold (sql-sandbox-source.ts).
 */
import { ValidationError } from '../../kernel/errors.js';

export type SqlTokenKind = 'word' | 'string' | 'quoted' | 'number' | 'param' | 'semicolon' | 'punct';

export interface SqlToken {
  kind: SqlTokenKind;
  text: string;
  offset: number;
}

export type RefusalReason =
  | 'empty'
  | 'too_long'
  | 'unterminated'
  | 'multiple_statements'
  | 'not_select'
  | 'write'
  | 'attach'
  | 'pragma'
  | 'vacuum'
  | 'transaction'
  | 'load_extension'
  | 'unsafe_function';

export const MAX_SQL_LENGTH = 20_000;

const WHY: Record<RefusalReason, string> = {
  empty: 'the query is empty',
  too_long: `the query is longer than ${MAX_SQL_LENGTH} characters`,
  unterminated: 'a string, quoted name or comment is not closed',
  multiple_statements: 'only one statement is allowed (a ";" followed by another statement was found)',
  not_select: 'only a SELECT or WITH ... SELECT statement is allowed',
  write: 'the index is read-only: statements that write (INSERT, UPDATE, DELETE, CREATE, DROP, ...) are not allowed',
  attach: 'ATTACH and DETACH would open other database files and are not allowed',
  pragma:
    "PRAGMA statements can change the connection and are not allowed; read settings with table-valued functions such as SELECT * FROM pragma_table_info('notes')",
  vacuum: 'VACUUM (and VACUUM INTO, which writes a copy of the database to a file) is not allowed',
  transaction: 'transaction control (BEGIN, COMMIT, ROLLBACK, SAVEPOINT) is not allowed',
  load_extension: 'load_extension() would load native code and is not allowed',
  unsafe_function: 'fts3_tokenizer() handles native pointers and is not allowed',
};

const FIRST_WORD: Record<string, RefusalReason | 'ok'> = {
  SELECT: 'ok',
  WITH: 'ok',
  INSERT: 'write',
  UPDATE: 'write',
  DELETE: 'write',
  REPLACE: 'write',
  CREATE: 'write',
  DROP: 'write',
  ALTER: 'write',
  REINDEX: 'write',
  ANALYZE: 'write',
  ATTACH: 'attach',
  DETACH: 'attach',
  PRAGMA: 'pragma',
  VACUUM: 'vacuum',
  BEGIN: 'transaction',
  COMMIT: 'transaction',
  END: 'transaction',
  ROLLBACK: 'transaction',
  SAVEPOINT: 'transaction',
  RELEASE: 'transaction',
};

/** Words that have no place anywhere in a read-only query, whatever comes first. */
const ANYWHERE: Record<string, RefusalReason> = {
  ATTACH: 'attach',
  DETACH: 'attach',
  PRAGMA: 'pragma',
  VACUUM: 'vacuum',
  LOAD_EXTENSION: 'load_extension',
  FTS3_TOKENIZER: 'unsafe_function',
};

export function refusal(reason: RefusalReason, detail?: string): ValidationError {
  return new ValidationError(`SQL refused: ${WHY[reason]}${detail ? ` (${detail})` : ''}.`, { field: 'query', reason });
}

/** Throws a ValidationError (details.reason) unless `sql` is one SELECT / WITH statement. */
export function checkReadOnlySql(sql: string): void {
  if (sql.length > MAX_SQL_LENGTH) throw refusal('too_long');
  const tokens = lexSql(sql);
  if (tokens.length === 0) throw refusal('empty');
  let statements = 0;
  let open = false;
  for (const token of tokens) {
    if (token.kind === 'semicolon') {
      open = false;
    } else if (!open) {
      open = true;
      statements++;
    }
  }
  if (statements > 1) throw refusal('multiple_statements');
  const first = tokens[0] as SqlToken;
  const verdict = first.kind === 'word' ? FIRST_WORD[first.text.toUpperCase()] : undefined;
  if (verdict !== 'ok') throw refusal(verdict ?? 'not_select', `it starts with ${first.text.slice(0, 20)}`);
  for (const token of tokens) {
    const reason = token.kind === 'word' ? ANYWHERE[token.text.toUpperCase()] : undefined;
    if (reason) throw refusal(reason);
  }
}

/** SQLite's tokens, without whitespace and comments. Throws `unterminated` for an open string or name. */
export function lexSql(sql: string): SqlToken[] {
  const out: SqlToken[] = [];
  let i = 0;
  const n = sql.length;
  while (i < n) {
    const c = sql.charCodeAt(i);
    const start = i;
    if (isSpace(c)) {
      i++;
    } else if (c === 45 /* - */ && sql.charCodeAt(i + 1) === 45) {
      while (i < n && sql.charCodeAt(i) !== 10) i++;
    } else if (c === 47 /* / */ && sql.charCodeAt(i + 1) === 42 /* * */) {
      // SQLite accepts a block comment left open at the very end; so do we (it hides nothing after it).
      const close = sql.indexOf('*/', i + 2);
      i = close === -1 ? n : close + 2;
    } else if (c === 39 /* ' */ || c === 34 /* " */ || c === 96 /* ` */) {
      i = skipQuoted(sql, i, sql[i] as string);
      out.push({ kind: c === 39 ? 'string' : 'quoted', text: sql.slice(start, i), offset: start });
    } else if (c === 91 /* [ */) {
      const close = sql.indexOf(']', i + 1);
      if (close === -1) throw refusal('unterminated');
      i = close + 1;
      out.push({ kind: 'quoted', text: sql.slice(start, i), offset: start });
    } else if (c === 59 /* ; */) {
      i++;
      out.push({ kind: 'semicolon', text: ';', offset: start });
    } else if (c === 63 /* ? */ || c === 58 /* : */ || c === 64 /* @ */ || c === 36 /* $ */) {
      i++;
      while (i < n && isWordChar(sql.charCodeAt(i))) i++;
      out.push({ kind: 'param', text: sql.slice(start, i), offset: start });
    } else if (isDigit(c) || (c === 46 /* . */ && isDigit(sql.charCodeAt(i + 1)))) {
      while (i < n && (isWordChar(sql.charCodeAt(i)) || sql.charCodeAt(i) === 46)) i++;
      out.push({ kind: 'number', text: sql.slice(start, i), offset: start });
    } else if (isWordStart(c)) {
      while (i < n && isWordChar(sql.charCodeAt(i))) i++;
      out.push({ kind: 'word', text: sql.slice(start, i), offset: start });
    } else {
      i++;
      out.push({ kind: 'punct', text: sql[start] as string, offset: start });
    }
  }
  return out;
}

/** Index just past the closing quote; a doubled quote is an escaped one. */
function skipQuoted(sql: string, from: number, quote: string): number {
  let i = from + 1;
  for (;;) {
    const close = sql.indexOf(quote, i);
    if (close === -1) throw refusal('unterminated');
    if (sql[close + 1] === quote) {
      i = close + 2;
      continue;
    }
    return close + 1;
  }
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 12;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isWordStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c >= 128;
}

function isWordChar(c: number): boolean {
  return isWordStart(c) || isDigit(c) || c === 36;
}
