/**
 * search_notes_sql against hostile SQL, over MCP stdio on a spawned server: every query is
 * refused (saying why) or stopped (by the time limit or the row cap), the server answers the
 * next call, and the index file's bytes never change.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateVault } from '../support/generate-vault.js';
import { callTool, connectStdio, type StdioSession } from '../support/mcp.js';
import { removeDir, tempDir } from '../support/temp.js';

const TIMEOUT_MS = 1500;
let root: string;
let session: StdioSession;
let dbFile: string;
let hashBefore: string;

/** The index bytes, main file and write-ahead log: any write would change one of them. */
function indexHash(): string {
  const hash = createHash('sha256');
  for (const file of [dbFile, `${dbFile}-wal`]) if (fs.existsSync(file)) hash.update(fs.readFileSync(file));
  return hash.digest('hex');
}

type Outcome = 'refused' | 'timeout' | 'error' | 'capped';

// [description, SQL, what must happen, for a refusal: the reason it must give]
const HOSTILE: Array<[string, string, Outcome, string?]> = [
  ['delete', 'DELETE FROM notes', 'refused', 'write'],
  [
    'insert',
    "INSERT INTO notes (id, title, type, filename, path, created, updated, content_hash, mtime_ms) VALUES ('x','x','x','x','x','x','x','x',0)",
    'refused',
    'write',
  ],
  ['update', "UPDATE notes SET title = 'pwned'", 'refused', 'write'],
  ['replace', "REPLACE INTO note_metadata (note_id, key, value) VALUES ('a', 'b', 'c')", 'refused', 'write'],
  ['drop', 'DROP TABLE notes', 'refused', 'write'],
  ['create', 'CREATE TABLE evil (x)', 'refused', 'write'],
  ['alter', 'ALTER TABLE notes ADD COLUMN evil TEXT', 'refused', 'write'],
  ['fts command', "INSERT INTO notes_fts(notes_fts) VALUES('delete-all')", 'refused', 'write'],
  ['write behind WITH', 'WITH x AS (SELECT 1) DELETE FROM notes', 'refused', 'write'],
  ['update behind WITH', "WITH x AS (SELECT 1) UPDATE notes SET title = 'x'", 'refused', 'write'],
  ['attach', "ATTACH DATABASE '<dir>/evil.db' AS evil", 'refused', 'attach'],
  ['detach', 'DETACH DATABASE main', 'refused', 'attach'],
  ['pragma write', 'PRAGMA user_version = 99', 'refused', 'pragma'],
  ['pragma journal', 'PRAGMA journal_mode = DELETE', 'refused', 'pragma'],
  ['pragma writable_schema', 'PRAGMA writable_schema = ON', 'refused', 'pragma'],
  ['pragma function with an argument', 'SELECT * FROM pragma_user_version(5)', 'error'],
  ['load_extension', "SELECT load_extension('<dir>/evil.so')", 'refused', 'load_extension'],
  ['load_extension in WHERE', "SELECT id FROM notes WHERE load_extension('x') IS NULL", 'refused', 'load_extension'],
  ['vacuum into', "VACUUM INTO '<dir>/copy.db'", 'refused', 'vacuum'],
  ['vacuum', 'VACUUM', 'refused', 'vacuum'],
  ['stacked', 'SELECT 1; DROP TABLE notes', 'refused', 'multiple_statements'],
  ['stacked after a comment', 'SELECT 1; /* harmless */ DELETE FROM notes', 'refused', 'multiple_statements'],
  ['semicolon hidden in a comment', 'SELECT 1 /* ; */ ; DELETE FROM notes -- bye', 'refused', 'multiple_statements'],
  ['statement after a line comment', 'SELECT 1 --\n; DROP TABLE notes', 'refused', 'multiple_statements'],
  ['write after a leading comment', '/* looks harmless */ DELETE FROM notes', 'refused', 'write'],
  ['write after a line comment', '-- SELECT\nDROP TABLE notes', 'refused', 'write'],
  ['keyword split by a comment', 'SEL/**/ECT * FROM notes', 'refused', 'not_select'],
  ['transaction', 'BEGIN; DELETE FROM notes; COMMIT', 'refused', 'multiple_statements'],
  ['savepoint', 'SAVEPOINT s', 'refused', 'transaction'],
  ['explain', 'EXPLAIN DELETE FROM notes', 'refused', 'not_select'],
  ['quotes left open to swallow a statement', "SELECT 'x'; DELETE FROM notes; SELECT '", 'refused', 'unterminated'],
  [
    'statement hidden in an escaped string',
    "SELECT 'a'';DELETE FROM notes;--' AS s; DELETE FROM notes",
    'refused',
    'multiple_statements',
  ],
  [
    'never-ending recursive CTE',
    'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c',
    'timeout',
  ],
  [
    'cartesian join of the FTS table with itself',
    "SELECT count(*) FROM notes_fts a, notes_fts b, notes_fts c WHERE a.content || b.content || c.content LIKE '%zzz%'",
    'timeout',
  ],
  [
    'cartesian join through MATCH',
    "SELECT count(*) FROM notes_fts a, notes_fts b, notes_fts c WHERE a.notes_fts MATCH 'the' AND b.content || c.title LIKE '%' || a.title || '%'",
    'timeout',
  ],
  ['endless rows', 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c', 'capped'],
  ['huge blob', 'SELECT randomblob(2000000000)', 'error'],
  ['large blob over the byte cap', 'SELECT zeroblob(100000000) AS b', 'error'],
  ['no such function (writefile)', "SELECT writefile('<dir>/x.txt', 'data')", 'error'],
  [
    'fts3_tokenizer pointer trick',
    "SELECT fts3_tokenizer('simple', x'4141414141414141')",
    'refused',
    'unsafe_function',
  ],
];

beforeAll(async () => {
  root = await tempDir('nk-e2e-sqlsafety-');
  generateVault(root, 400);
  fs.writeFileSync(
    path.join(root, 'notekernel.config.yaml'),
    `profile: flint\nplugins:\n  search:\n    sqlTimeoutMs: ${TIMEOUT_MS}\n    sqlMaxRows: 200\n`,
  );
  session = await connectStdio(['serve', '--vault', root]);
  dbFile = path.join(root, '.flint-note', 'notekernel.db');
  // Start-up work (indexing, plugins' tables, the WAL checkpoint 500 ms after the last write) is
  // done once the first answer comes and the bytes stay the same for a second.
  await callTool(session.client, 'search_notes', { query: 'plan' });
  for (let previous = '', same = 0; same < 4; await new Promise((r) => setTimeout(r, 250))) {
    const now = indexHash();
    same = now === previous ? same + 1 : 0;
    previous = now;
  }
  hashBefore = indexHash();
}, 120_000);

afterAll(async () => {
  await session?.close();
  await removeDir(root);
});

describe('hostile SQL', () => {
  it(`has at least 25 cases (${HOSTILE.length})`, () => {
    expect(HOSTILE.length).toBeGreaterThanOrEqual(25);
  });

  it.each(HOSTILE)(
    '%s: refused or stopped, server still answering, index unchanged',
    async (_label, sql, outcome, reason) => {
      const started = Date.now();
      const answer = await callTool(session.client, 'search_notes_sql', {
        query: sql.replaceAll('<dir>', root),
        limit: 200,
      });
      const body = answer.body as {
        error?: string;
        reason?: string;
        message?: string;
        results?: unknown[];
        has_more?: boolean;
      };
      if (outcome === 'capped') {
        expect(answer.isError).toBe(false);
        expect(body.results).toHaveLength(200);
        expect(body.has_more).toBe(true);
      } else {
        expect(answer.isError, JSON.stringify(body)).toBe(true);
        if (outcome === 'refused') {
          expect(body).toMatchObject({ error: 'validation_failed', reason });
          expect(body.message).toMatch(/SQL refused: .+/);
        }
        if (outcome === 'timeout') {
          expect(body.error).toBe('timeout');
          console.info(`${_label}: stopped after ${Date.now() - started} ms (limit ${TIMEOUT_MS} ms)`);
        }
        if (outcome === 'error') expect(body.error).toBe('validation_failed');
      }
      // The server answers the next call, and nothing was written.
      const probe = await callTool(session.client, 'search_notes', { query: 'zyxplanted100' });
      expect(probe.isError).toBe(false);
      expect((probe.body as { results: Array<{ id: string }> }).results[0]?.id).toBe('general/note-100.md');
      expect(indexHash()).toBe(hashBefore);
    },
  );

  it('left no file behind (ATTACH, VACUUM INTO, writefile)', () => {
    for (const name of ['evil.db', 'copy.db', 'x.txt']) expect(fs.existsSync(path.join(root, name)), name).toBe(false);
  });

  it('a legitimate query still runs, and the database is the same as before the suite', async () => {
    const answer = await callTool(session.client, 'search_notes_sql', { query: 'SELECT count(*) AS n FROM notes' });
    expect(answer.body).toMatchObject({ results: [{ n: 400 }] });
    expect(indexHash()).toBe(hashBefore);
  });
});
