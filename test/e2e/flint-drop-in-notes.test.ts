/**
 * Issue 31, flint (seed 000) and flint-note's own integration tests, for the notes and search
 * tools: what a prompt written for flint-note sends, through a real SDK client over stdio on the
 * built CLI, from the seed's literal examples where it has them. Coerced metadata, search fields
 * and identifiers here; creates, renames, moves, arguments, sorting and deletes in
 * flint-drop-in-note-writes.test.ts.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFlint, type FlintSession } from '../support/flint-session.js';
import { fileExists, getNote, type NoteBody } from './flint-drop-in/notes.js';

let v: FlintSession;
const get = (identifier: string) => getNote(v, identifier);
const exists = (rel: string) => fileExists(v, rel);

beforeAll(async () => {
  v = await startFlint('nk-e2e-drop-in-notes-');
});
afterAll(async () => {
  await v?.close();
});

describe("1. metadata is coerced to the type's schema, as the seed promises", () => {
  beforeAll(async () => {
    await v.ok('create_note_type', {
      type_name: 'habits',
      description: 'Habits to keep',
      metadata_schema: [
        { name: 'done', type: 'boolean', required: false, description: 'Kept today' },
        { name: 'streak', type: 'number', required: false, description: 'Days in a row', constraints: { min: 0 } },
        { name: 'code', type: 'string', required: false, description: 'A short code' },
      ],
    });
  });

  it('"3" for a number and "true" / "false" for a boolean are stored as the number and the boolean', async () => {
    await v.ok('create_note', {
      type: 'habits',
      title: 'Walk',
      content: 'Every day.',
      metadata: { done: 'true', streak: '3', code: 42 },
    });
    const note = await get('habits/walk.md');
    expect(note.metadata).toMatchObject({ done: true, streak: 3, code: '42' });
    expect(await v.read('habits/walk.md')).toMatch(/^done: true$/m);
    await v.ok('update_note', {
      identifier: 'habits/walk.md',
      metadata: { done: 'FALSE', streak: ' 4 ' },
      content_hash: note.content_hash,
    });
    expect((await get('habits/walk.md')).metadata).toMatchObject({ done: false, streak: 4 });
    // The seed's default daily type: energy_level (number, min 1, max 10).
    await v.ok('create_note', {
      type: 'daily',
      title: '2024-01-16',
      content: 'x',
      metadata: { date: '2024-01-16', energy_level: '7' },
    });
    expect((await get('daily/2024-01-16.md')).metadata.energy_level).toBe(7);
  });

  it('a value that cannot be coerced is refused naming the field, and a coerced one still meets the constraints', async () => {
    const before = await v.files();
    expect(
      await v.fail('create_note', { type: 'habits', title: 'Run', content: 'x', metadata: { done: 'maybe' } }),
    ).toMatchObject({ error: 'validation_failed', field: 'done', rule: 'type', value: 'maybe' });
    expect(
      await v.fail('create_note', { type: 'habits', title: 'Run', content: 'x', metadata: { streak: 'three' } }),
    ).toMatchObject({ error: 'validation_failed', field: 'streak', rule: 'type' });
    expect(
      await v.fail('create_note', { type: 'habits', title: 'Run', content: 'x', metadata: { streak: '-1' } }),
    ).toMatchObject({ error: 'validation_failed', field: 'streak', rule: 'min', value: -1 });
    expect(await v.files()).toEqual(before);
  });
});

describe('2. every field name the seed lists for `fields` is honoured in search results', () => {
  beforeAll(async () => {
    // The seed's advanced example searches a `todo` type with a numeric priority and a status.
    await v.ok('create_note_type', {
      type_name: 'todo',
      description: 'Tasks',
      metadata_schema: [
        {
          name: 'status',
          type: 'select',
          required: false,
          description: 'State',
          constraints: { options: ['in_progress', 'done'] },
        },
        { name: 'priority', type: 'number', required: false, description: 'Higher first' },
      ],
    });
    await v.ok('create_note', {
      type: 'todo',
      title: 'Review the draft',
      content: 'Please review chapter two.',
      metadata: { status: 'in_progress', priority: '4', tags: ['writing'] },
    });
    await v.ok('create_note', {
      type: 'todo',
      title: 'Review later',
      content: 'review someday',
      metadata: { status: 'in_progress', priority: 1 },
    });
  });

  it("search_notes_advanced, the seed's literal example: updated, metadata.status and metadata.priority come back", async () => {
    const answer = await v.ok<{ results: Array<Record<string, unknown>>; total: number; has_more: boolean }>(
      'search_notes_advanced',
      {
        type: 'todo',
        metadata_filters: [
          { key: 'status', value: 'in_progress' },
          { key: 'priority', operator: '>=', value: '3' },
        ],
        updated_within: '7d',
        content_contains: 'review',
        sort: [{ field: 'updated', order: 'desc' }],
        limit: 50,
        fields: ['id', 'title', 'type', 'updated', 'metadata.status', 'metadata.priority'],
      },
    );
    expect(answer).toMatchObject({ total: 1, has_more: false });
    const note = await get('todo/review-the-draft.md');
    expect(answer.results[0]).toEqual({
      id: 'todo/review-the-draft.md',
      title: 'Review the draft',
      type: 'todo',
      updated: note.updated,
      metadata: { status: 'in_progress', priority: 4 },
      score: expect.any(Number),
      snippet: expect.any(String),
      filename: 'review-the-draft.md',
      path: path.join(v.root, 'todo', 'review-the-draft.md'),
    });
  });

  it("search_notes with the seed's literal fields, and the core fields get_note takes (content, content_hash, created, updated)", async () => {
    const simple = await v.ok<{ results: Array<Record<string, unknown>> }>('search_notes', {
      query: 'review draft',
      type_filter: 'todo',
      limit: 10,
      fields: ['id', 'title', 'type', 'created', 'metadata.tags'],
    });
    const note = await get('todo/review-the-draft.md');
    expect(simple.results[0]).toMatchObject({
      id: note.id,
      title: 'Review the draft',
      type: 'todo',
      created: note.created,
      metadata: { tags: ['writing'] },
    });
    expect(Object.keys(simple.results[0] ?? {}).sort()).toEqual([
      'created',
      'filename',
      'id',
      'metadata',
      'path',
      'score',
      'snippet',
      'title',
      'type',
    ]);
    const core = await v.ok<{ results: Array<Record<string, unknown>> }>('search_notes', {
      query: 'review draft',
      type_filter: 'todo',
      fields: ['id', 'content', 'content_hash', 'updated'],
    });
    expect(core.results[0]).toMatchObject({
      id: note.id,
      content: note.content,
      content_hash: note.content_hash,
      updated: note.updated,
    });
    // Without fields the seed's result shape is unchanged.
    const all = await v.ok<{ results: Array<Record<string, unknown>> }>('search_notes', {
      query: 'review draft',
      type_filter: 'todo',
    });
    expect(all.results[0]).not.toHaveProperty('updated');
    expect(all.results[0]).toHaveProperty('lastUpdated', note.updated);
  });

  it("search_notes_sql, the seed's literal example: query_time_ms, and fields honoured", async () => {
    const literal = await v.ok<{ results: unknown[]; query_time_ms: number }>('search_notes_sql', {
      query:
        "SELECT n.*, GROUP_CONCAT(m.key || ':' || m.value) as metadata FROM notes n LEFT JOIN note_metadata m ON n.id = m.note_id WHERE n.type = 'todo' AND n.updated < datetime('now', '-7 days') AND EXISTS (SELECT 1 FROM note_metadata WHERE note_id = n.id AND key = 'status' AND value = 'in_progress') GROUP BY n.id ORDER BY n.updated DESC",
      limit: 50,
      fields: ['id', 'title', 'type', 'updated', 'metadata.status', 'metadata.priority'],
    });
    // Every todo was written just now, so none is older than 7 days.
    expect(literal.results).toEqual([]);
    expect(literal.query_time_ms).toEqual(expect.any(Number));
    const recent = await v.ok<{ results: Array<Record<string, unknown>>; query_time_ms: number }>('search_notes_sql', {
      query: "SELECT n.* FROM notes n WHERE n.type = 'todo' ORDER BY n.title",
      fields: ['id', 'updated', 'metadata.priority'],
    });
    expect(recent.query_time_ms).toBeGreaterThanOrEqual(0);
    expect(
      recent.results.map((r) => [r.id, typeof r.updated, (r.metadata as Record<string, unknown>).priority]),
    ).toEqual([
      ['todo/review-later.md', 'string', 1],
      ['todo/review-the-draft.md', 'string', 4],
    ]);
  });
});

describe('3. get_note takes a title as the link tools do; rename_note to a title another note has', () => {
  beforeAll(async () => {
    await v.ok('create_note', {
      type: 'projects',
      title: 'Website Redesign',
      content: 'Plan.',
      metadata: { status: 'active' },
    });
  });

  it('resolves an id, an id without .md, a title (any case) and a filename to the note get_backlinks names', async () => {
    const { note_id } = await v.ok<{ note_id: string }>('get_backlinks', { identifier: 'Website Redesign' });
    expect(note_id).toBe('projects/website-redesign.md');
    for (const identifier of [
      'projects/website-redesign.md',
      'projects/website-redesign',
      'Website Redesign',
      'website redesign',
      'website-redesign',
    ]) {
      expect((await v.ok<NoteBody>('get_note', { identifier, fields: ['id'] })).id, identifier).toBe(note_id);
    }
    const many = await v.ok<{ results: Array<{ success: boolean; note?: { id: string } }> }>('get_notes', {
      identifiers: ['Website Redesign', 'No Such Note'],
      fields: ['id'],
    });
    expect(many.results).toEqual([
      { success: true, note: { id: note_id } },
      { success: false, error: 'Note not found: No Such Note', code: 'not_found' },
    ]);
    expect(await v.fail('get_note', { identifier: 'No Such Note' })).toMatchObject({ error: 'not_found' });
    expect(await v.fail('get_note', { identifier: '../../etc/passwd' })).toMatchObject({ error: 'path_outside_vault' });
  });

  it("rename_note, the seed's usage pattern; then another note takes the same title: allowed, the filenames stay, with a warning", async () => {
    const note = await get('projects/website-redesign.md');
    const renamed = await v.ok<Record<string, unknown>>('rename_note', {
      identifier: 'projects/website-redesign.md',
      new_title: 'Website Redesign v2.0 - Mobile First',
      content_hash: note.content_hash,
    });
    expect(renamed).toMatchObject({
      success: true,
      new_title: 'Website Redesign v2.0 - Mobile First',
      filename: 'website-redesign.md',
      filename_unchanged: true,
      links_preserved: true,
    });
    await v.ok('create_note', { type: 'general', title: 'Mobile plan', content: 'x' });
    const other = await get('general/mobile-plan.md');
    const same = await v.ok<Record<string, unknown>>('rename_note', {
      identifier: 'general/mobile-plan.md',
      new_title: 'Website Redesign v2.0 - Mobile First',
      content_hash: other.content_hash,
    });
    expect(same).toMatchObject({
      success: true,
      identifier: 'general/mobile-plan.md',
      filename: 'mobile-plan.md',
      filename_unchanged: true,
    });
    expect(same.warnings).toEqual([
      expect.stringContaining(
        "Another note is titled 'Website Redesign v2.0 - Mobile First' (projects/website-redesign.md)",
      ),
    ]);
    expect(await exists('general/mobile-plan.md')).toBe(true);
    expect((await get('general/mobile-plan.md')).title).toBe('Website Redesign v2.0 - Mobile First');
    expect((await get('projects/website-redesign.md')).title).toBe('Website Redesign v2.0 - Mobile First');
  });
});
