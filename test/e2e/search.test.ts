/**
 * Search end to end over MCP stdio: the SDK's Client spawns the built `notekernel serve` on a
 * generated vault, and every answer is checked against what the generator planted.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateVault, type GeneratedVault } from '../support/generate-vault.js';
import { callTool, connectStdio, type StdioSession } from '../support/mcp.js';
import { removeDir, tempDir } from '../support/temp.js';

type Response = { results: Array<Record<string, unknown> & { id: string }>; total: number; has_more: boolean };

let root: string;
let vault: GeneratedVault;
let session: StdioSession;

async function call(name: string, args: Record<string, unknown>): Promise<Response> {
  const answer = await callTool(session.client, name, args);
  if (answer.isError) throw new Error(`${name} failed: ${JSON.stringify(answer.body)}`);
  return answer.body as Response;
}

/** Every page of an advanced search, in order. */
async function allPages(args: Record<string, unknown>): Promise<Response['results']> {
  const out: Response['results'] = [];
  for (let offset = 0; ; offset += 500) {
    const page = await call('search_notes_advanced', { ...args, limit: 500, offset });
    out.push(...page.results);
    if (!page.has_more) return out;
  }
}

beforeAll(async () => {
  root = await tempDir('nk-e2e-search-');
  vault = generateVault(root, 2000);
  session = await connectStdio(['serve', '--profile', 'flint', '--vault', root]);
}, 120_000);

afterAll(async () => {
  await session?.close();
  await removeDir(root);
});

const indexOf = (id: string) => Number(/note-(\d+)\.md$/.exec(id)?.[1]);

describe('search_notes on a generated vault', () => {
  it('ranks the planted note first for its distinctive phrase, every time', async () => {
    const planted = vault.notes.filter((n) => n.phrase);
    expect(planted.length).toBe(20);
    for (const note of planted) {
      const body = await call('search_notes', { query: `"${note.phrase}"` });
      expect(body.results[0]?.id, note.phrase).toBe(note.id);
      expect(body.total).toBe(1);
      expect(String(body.results[0]?.snippet)).toContain('<mark>');
      const single = await call('search_notes', { query: note.phrase?.split(' ')[1] });
      expect(single.results[0]?.id).toBe(note.id);
    }
  });

  it('ranks a title hit first: the number in a generated title', async () => {
    const note = vault.notes[1234];
    const body = await call('search_notes', { query: note?.title, limit: 5 });
    expect(body.results[0]?.id).toBe(note?.id);
  });

  it('use_regex finds exactly the planted notes a pattern describes', async () => {
    const body = await call('search_notes', { query: 'zyxplanted1\\d00\\b', use_regex: true, limit: 100 });
    const expected = vault.notes
      .filter((n) => n.phrase && /^zyxplanted1\d00 /.test(n.phrase))
      .map((n) => n.id)
      .sort();
    expect(body.results.map((r) => r.id).sort()).toEqual(expected);
    expect(body.total).toBe(10);
  });

  it('an empty query lists the most recently updated, with type_filter', async () => {
    const body = await call('search_notes', { query: '', type_filter: 'daily', limit: 3 });
    const expected = vault.notes
      .filter((n) => n.type === 'daily')
      .slice(-3)
      .reverse()
      .map((n) => n.id);
    expect(body.results.map((r) => r.id)).toEqual(expected);
    expect(body).toMatchObject({ total: 400, has_more: true });
  });
});

describe('search_notes_advanced on a generated vault', () => {
  it('two metadata filters return exactly the planted set', async () => {
    const results = await allPages({
      type: 'todos',
      metadata_filters: [
        { key: 'status', value: 'in_progress' },
        { key: 'priority', operator: '>=', value: 3 },
      ],
      fields: ['id'],
    });
    const expected = vault.notes
      .filter((n) => n.type === 'todos' && n.status === 'in_progress' && n.priority >= 3)
      .map((n) => n.id);
    expect(expected.length).toBeGreaterThan(20);
    expect(results.map((r) => r.id).sort()).toEqual([...expected].sort());
  });

  it('IN over a list and a tag element, sorted by priority then recency', async () => {
    const results = await allPages({
      metadata_filters: [
        { key: 'status', operator: 'IN', value: ['on_hold', 'completed'] },
        { key: 'tags', value: 'kernel' },
      ],
      sort: [
        { field: 'metadata.priority', order: 'desc' },
        { field: 'updated', order: 'desc' },
      ],
    });
    const expected = vault.notes
      .filter((n) => (n.status === 'on_hold' || n.status === 'completed') && n.tags.includes('kernel'))
      .sort((a, b) => b.priority - a.priority || indexOf(b.id) - indexOf(a.id))
      .map((n) => n.id);
    expect(results.map((r) => r.id)).toEqual(expected);
  });

  it('created windows select by the planted timestamps', async () => {
    // Note i was created at 2024-01-01 + i minutes: [100, 200) is a window of 100 notes.
    const results = await allPages({ created_after: '2024-01-01T01:40:00Z', created_before: '2024-01-01T03:20:00Z' });
    expect(results.map((r) => indexOf(r.id)).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 100 }, (_, k) => 100 + k),
    );
  });
});

describe('search_notes_sql on a generated vault', () => {
  it("seed 000's common query pattern, on this vault's todos, returns the planted set", async () => {
    const query = `SELECT n.* FROM notes n
JOIN note_metadata m1 ON n.id = m1.note_id AND m1.key = 'status' AND m1.value = 'in_progress'
JOIN note_metadata m2 ON n.id = m2.note_id AND m2.key = 'priority' AND CAST(m2.value AS INTEGER) >= 3
WHERE n.type = ?
ORDER BY n.updated DESC`;
    const body = await call('search_notes_sql', { query, params: ['todos'], limit: 1000 });
    const expected = vault.notes.filter((n) => n.type === 'todos' && n.status === 'in_progress' && n.priority >= 3);
    expect(body.results.map((r) => r.id)).toEqual(expected.map((n) => n.id).reverse());
    expect(body.results[0]).toMatchObject({ type: 'todos', metadata: { status: 'in_progress' } });
  });

  it("the seed's examples run as written", async () => {
    const seed = [
      "SELECT n.*, GROUP_CONCAT(m.key || ':' || m.value) as metadata FROM notes n LEFT JOIN note_metadata m ON n.id = m.note_id WHERE n.type = 'todo' AND n.updated < datetime('now', '-7 days') AND EXISTS (SELECT 1 FROM note_metadata WHERE note_id = n.id AND key = 'status' AND value = 'in_progress') GROUP BY n.id ORDER BY n.updated DESC",
      "SELECT n.* FROM notes n JOIN note_metadata m ON n.id = m.note_id AND m.key = 'rating' AND CAST(m.value AS INTEGER) > 4 WHERE n.type = 'reading' AND n.created >= datetime('now', 'start of year') ORDER BY CAST(m.value AS INTEGER) DESC",
      "SELECT m.value as attendee, COUNT(*) as meeting_count FROM notes n JOIN note_metadata m ON n.id = m.note_id AND m.key = 'attendees' WHERE n.type = 'meeting' AND n.created >= datetime('now', '-30 days') GROUP BY m.value ORDER BY meeting_count DESC",
    ];
    for (const query of seed) {
      const answer = await callTool(session.client, 'search_notes_sql', {
        query,
        limit: 50,
        fields: ['id', 'title', 'type', 'updated', 'metadata.status', 'metadata.priority'],
      });
      expect(answer.isError, query).toBe(false);
    }
  });
});

describe('the index follows the vault', () => {
  it('a note written through a tool is found at once', async () => {
    await callTool(session.client, 'create_note', {
      type: 'general',
      title: 'Pangolin census',
      content: 'Counting pangolins at dusk.',
    });
    expect((await call('search_notes', { query: 'pangolins' })).results.map((r) => r.id)).toEqual([
      'general/pangolin-census.md',
    ]);
  });

  it('a note written by another program is found through the watcher', async () => {
    await fs.writeFile(
      path.join(root, 'general', 'outside.md'),
      '---\ntitle: Narwhal sighting\n---\n\nA narwhal off the coast.\n',
    );
    const start = Date.now();
    for (;;) {
      const body = await call('search_notes', { query: 'narwhal' });
      if (body.results[0]?.id === 'general/outside.md') break;
      if (Date.now() - start > 5000) throw new Error('the external note was not indexed within 5 s');
      await new Promise((r) => setTimeout(r, 50));
    }
  });
});

describe('bad input over MCP', () => {
  it.each<[string, Record<string, unknown>, string]>([
    [
      'search_notes_advanced',
      { metadata_filters: [{ key: 'status', operator: 'contains', value: 'x' }] },
      'metadata_filters.0.operator',
    ],
    ['search_notes_advanced', { updated_within: 'a week' }, 'updated_within'],
    ['search_notes_advanced', { sort: [{ field: 'colour', order: 'asc' }] }, 'sort.0.field'],
    ['search_notes', { query: 'x', limit: 0 }, 'limit'],
    ['search_notes_sql', { query: 'DELETE FROM notes' }, 'query'],
  ])('%s %j → error naming %s', async (name, args, field) => {
    const answer = await callTool(session.client, name, args);
    expect(answer.isError).toBe(true);
    expect(answer.body).toMatchObject({ error: 'validation_failed' });
    expect((answer.body as { message: string }).message).toContain(field);
  });

  it('a query matching nothing is an empty answer', async () => {
    expect(await call('search_notes', { query: 'zzzznothingzzzz' })).toEqual({
      results: [],
      total: 0,
      has_more: false,
    });
  });
});
