/**
 * `search.sql`: seed 000's own SQL runs as written; params bind; rows and time are bounded; a
 * refused or stopped query leaves the index answering.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { openSearchVault, type NoteSpec, type SearchVault } from './helpers.js';

let v: SearchVault;
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();

// Seed 000's examples use the types todo, reading and meeting.
const SEED_EXAMPLE_JSON =
  "SELECT n.*, GROUP_CONCAT(m.key || ':' || m.value) as metadata FROM notes n LEFT JOIN note_metadata m ON n.id = m.note_id WHERE n.type = 'todo' AND n.updated < datetime('now', '-7 days') AND EXISTS (SELECT 1 FROM note_metadata WHERE note_id = n.id AND key = 'status' AND value = 'in_progress') GROUP BY n.id ORDER BY n.updated DESC";
const SEED_TODOS = `SELECT n.* FROM notes n
JOIN note_metadata m1 ON n.id = m1.note_id AND m1.key = 'status' AND m1.value = 'in_progress'
JOIN note_metadata m2 ON n.id = m2.note_id AND m2.key = 'priority' AND CAST(m2.value AS INTEGER) >= 3
WHERE n.type = 'todo'
ORDER BY n.updated DESC`;
const SEED_READING = `SELECT n.* FROM notes n
JOIN note_metadata m ON n.id = m.note_id AND m.key = 'rating' AND CAST(m.value AS INTEGER) > 4
WHERE n.type = 'reading' AND n.created >= datetime('now', 'start of year')
ORDER BY CAST(m.value AS INTEGER) DESC`;
const SEED_MEETINGS = `SELECT m.value as attendee, COUNT(*) as meeting_count
FROM notes n
JOIN note_metadata m ON n.id = m.note_id AND m.key = 'attendees'
WHERE n.type = 'meeting' AND n.created >= datetime('now', '-30 days')
GROUP BY m.value
ORDER BY meeting_count DESC`;

beforeAll(async () => {
  const notes: Record<string, NoteSpec> = {
    'todo/old-active.md': {
      title: 'Old active',
      body: 'x',
      yaml: 'status: in_progress\npriority: 4\n',
      created: daysAgo(20),
      updated: daysAgo(10),
    },
    'todo/older-active.md': {
      title: 'Older active',
      body: 'x',
      yaml: 'status: in_progress\npriority: 2\n',
      created: daysAgo(40),
      updated: daysAgo(30),
    },
    'todo/new-active.md': {
      title: 'New active',
      body: 'x',
      yaml: 'status: in_progress\npriority: 5\n',
      created: daysAgo(2),
      updated: daysAgo(1),
    },
    'todo/done.md': {
      title: 'Done',
      body: 'x',
      yaml: 'status: completed\npriority: 5\n',
      created: daysAgo(20),
      updated: daysAgo(10),
    },
    'reading/great.md': {
      title: 'Great book',
      body: 'x',
      yaml: 'rating: 5\n',
      created: daysAgo(0),
      updated: daysAgo(0),
    },
    'reading/fine.md': { title: 'Fine book', body: 'x', yaml: 'rating: 4\n', created: daysAgo(0), updated: daysAgo(0) },
    'meeting/m1.md': { title: 'M1', body: 'x', yaml: 'attendees: [alice, bob]\n', created: daysAgo(3) },
    'meeting/m2.md': { title: 'M2', body: 'x', yaml: 'attendees: [alice]\n', created: daysAgo(5) },
    'meeting/m3.md': { title: 'M3', body: 'x', yaml: 'attendees: [carol]\n', created: daysAgo(90) },
  };
  v = await openSearchVault(notes);
});

describe("seed 000's SQL, as written", () => {
  it('the JSON example: stale in-progress todos with their metadata grouped', async () => {
    const rows = await v.search.sql(SEED_EXAMPLE_JSON);
    expect(rows.map((r) => r.id)).toEqual(['todo/old-active.md', 'todo/older-active.md']);
    expect(String(rows[0]?.metadata)).toContain('status:in_progress');
  });

  it('todos by status and priority', async () => {
    expect((await v.search.sql(SEED_TODOS)).map((r) => r.id)).toEqual(['todo/new-active.md', 'todo/old-active.md']);
  });

  it('reading notes rated above 4 this year', async () => {
    expect((await v.search.sql(SEED_READING)).map((r) => r.id)).toEqual(['reading/great.md']);
  });

  it('meetings grouped by attendee', async () => {
    expect(await v.search.sql(SEED_MEETINGS)).toEqual([
      { attendee: 'alice', meeting_count: 2 },
      { attendee: 'bob', meeting_count: 1 },
    ]);
  });
});

describe('params and bounds', () => {
  it('binds ? from a list and @name from an object; booleans as 1/0', async () => {
    expect(
      await v.search.sql('SELECT id FROM notes WHERE type = ? AND title LIKE ? ORDER BY id', ['todo', '%active']),
    ).toEqual([{ id: 'todo/new-active.md' }, { id: 'todo/old-active.md' }, { id: 'todo/older-active.md' }]);
    expect(await v.search.sql('SELECT count(*) AS n FROM notes WHERE type = @type', { type: 'meeting' })).toEqual([
      { n: 3 },
    ]);
    expect(await v.search.sql('SELECT ? AS t, ? AS f', [true, false])).toEqual([{ t: 1, f: 0 }]);
  });

  it('refuses a value that cannot be bound, naming it', async () => {
    await expect(v.search.sql('SELECT ?', [{ nested: 1 } as unknown as string])).rejects.toMatchObject({
      details: { field: 'params.0' },
    });
  });

  it('returns at most maxRows rows', async () => {
    const rows = await v.search.sql(
      'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c',
      [],
      { maxRows: 7 },
    );
    expect(rows).toHaveLength(7);
    expect(await v.search.sql('SELECT id FROM notes')).toHaveLength(9);
  });

  it('renders blobs as base64 and big integers exactly', async () => {
    expect(await v.search.sql("SELECT x'00ff' AS b, 9007199254740993 AS big, 42 AS small")).toEqual([
      { b: 'AP8=', big: '9007199254740993', small: 42 },
    ]);
  });

  it('an SQL error is a validation error quoting SQLite', async () => {
    await expect(v.search.sql('SELECT nope FROM notes')).rejects.toMatchObject({
      code: 'validation_failed',
      message: expect.stringContaining('no such column: nope'),
    });
  });

  it('a query past its time limit is stopped; the next one is answered (how soon: test/bench/time-bounds.ts)', async () => {
    await expect(
      v.search.sql('WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c', [], {
        timeoutMs: 300,
      }),
    ).rejects.toMatchObject({ code: 'timeout', details: { timeout_ms: 300 } });
    expect(await v.search.sql('SELECT count(*) AS n FROM notes')).toEqual([{ n: 9 }]);
  });

  it('refusals say why: writes, pragma, attach, stacked statements', async () => {
    await expect(v.search.sql('DELETE FROM notes')).rejects.toMatchObject({ details: { reason: 'write' } });
    await expect(v.search.sql('WITH a AS (SELECT 1) DELETE FROM notes')).rejects.toMatchObject({
      details: { reason: 'write' },
    });
    await expect(v.search.sql('PRAGMA user_version = 7')).rejects.toMatchObject({ details: { reason: 'pragma' } });
    await expect(v.search.sql("ATTACH ':memory:' AS x")).rejects.toMatchObject({ details: { reason: 'attach' } });
    await expect(v.search.sql('SELECT 1; SELECT 2')).rejects.toMatchObject({
      details: { reason: 'multiple_statements' },
    });
    expect(await v.search.sql('SELECT count(*) AS n FROM notes')).toEqual([{ n: 9 }]);
  });
});
