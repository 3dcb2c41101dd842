/** The SQL lexer and the read-only policy on its tokens. */
import { describe, expect, it } from 'vitest';
import { checkReadOnlySql, lexSql } from '../../../backends/fs-sqlite/sql-guard.js';

function reason(sql: string): string | undefined {
  try {
    checkReadOnlySql(sql);
    return undefined;
  } catch (err) {
    return (err as { details: { reason: string } }).details.reason;
  }
}

describe('lexSql', () => {
  it('skips comments and keeps strings and quoted names whole', () => {
    const tokens = lexSql(`SELECT 'a;--b', "x""y" /* ; */ FROM [t;] -- ; DROP\n WHERE c = ?1`);
    expect(tokens.map((t) => t.kind)).toEqual([
      'word',
      'string',
      'punct',
      'quoted',
      'word',
      'quoted',
      'word',
      'word',
      'punct',
      'param',
    ]);
    expect(tokens[1]?.text).toBe("'a;--b'");
    expect(tokens[3]?.text).toBe('"x""y"');
  });

  it('refuses unterminated strings and names', () => {
    expect(reason("SELECT 'open")).toBe('unterminated');
    expect(reason('SELECT "open')).toBe('unterminated');
    expect(reason('SELECT [open')).toBe('unterminated');
  });
});

describe('checkReadOnlySql', () => {
  it.each([
    'SELECT * FROM notes',
    'select 1;',
    'SELECT 1; -- trailing comment',
    'SELECT 1; /* trailing */ ;',
    "WITH t AS (SELECT id FROM notes) SELECT * FROM t WHERE id <> ';'",
    "SELECT * FROM pragma_table_info('notes')",
    "SELECT replace(title, 'a', 'b') AS \"pragma\" FROM notes",
    '/* leading comment */ SELECT 1',
    "SELECT * FROM notes WHERE title = 'DELETE FROM notes; ATTACH'",
  ])('accepts %j', (sql) => {
    expect(reason(sql)).toBeUndefined();
  });

  it.each<[string, string]>([
    ['', 'empty'],
    ['  -- nothing\n /* at all */', 'empty'],
    ['DELETE FROM notes', 'write'],
    ['/* x */ INSERT INTO notes VALUES (1)', 'write'],
    ['-- x\nDROP TABLE notes', 'write'],
    ["ATTACH DATABASE 'x.db' AS x", 'attach'],
    ['DETACH x', 'attach'],
    ['PRAGMA user_version = 1', 'pragma'],
    ["VACUUM INTO '/tmp/x.db'", 'vacuum'],
    ['BEGIN', 'transaction'],
    ['EXPLAIN SELECT 1', 'not_select'],
    ['VALUES (1)', 'not_select'],
    ['SEL/**/ECT 1', 'not_select'],
    ['SELECT 1; SELECT 2', 'multiple_statements'],
    ['SELECT 1 /* ; */ ; DELETE FROM notes', 'multiple_statements'],
    ['SELECT 1 --\n; DROP TABLE notes', 'multiple_statements'],
    ["SELECT load_extension('/tmp/x.so')", 'load_extension'],
    ['SELECT * FROM notes WHERE LOAD_EXTENSION(1)', 'load_extension'],
    ["SELECT fts3_tokenizer('simple', x'00')", 'unsafe_function'],
    ['WITH a AS (SELECT 1) SELECT * FROM a WHERE 0 OR pragma', 'pragma'],
    ['SELECT ' + 'x'.repeat(30_000), 'too_long'],
  ])('refuses %j (%s)', (sql, why) => {
    expect(reason(sql)).toBe(why);
  });

  it('says why in the message and names the argument', () => {
    expect(() => checkReadOnlySql('PRAGMA writable_schema = 1')).toThrowError(
      /PRAGMA statements can change the connection/,
    );
    try {
      checkReadOnlySql('DELETE FROM notes');
    } catch (err) {
      expect(err).toMatchObject({ code: 'validation_failed', details: { field: 'query', reason: 'write' } });
    }
  });
});
