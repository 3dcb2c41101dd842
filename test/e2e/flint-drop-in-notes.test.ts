/**
 * Issue 31, flint (seed 000) and flint-note's own integration tests, for the notes and search
 * tools: what a prompt written for flint-note sends, through a real SDK client over stdio on the
 * built CLI, from the seed's literal examples where it has them.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFlint, type FlintSession } from '../support/flint-session.js';

let v: FlintSession;
type NoteBody = {
  id: string;
  title: string;
  content: string;
  content_hash: string;
  created: string;
  updated: string;
  metadata: Record<string, unknown>;
};
const get = (identifier: string) => v.ok<NoteBody>('get_note', { identifier });
const exists = (rel: string) =>
  fs.stat(path.join(v.root, rel)).then(
    () => true,
    () => false,
  );

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

describe('4. create_note keeps metadata.created; a batch answers per item', () => {
  it("an imported note keeps its creation date (the seed's Atomic Habits example); a created that is no date is refused", async () => {
    const answer = await v.ok<{ id: string; created: string }>('create_note', {
      type: 'general',
      title: 'Atomic Habits',
      content: '# Atomic Habits\n\nSmall changes compound over time.',
      metadata: { author: 'James Clear', created: '2024-01-15T10:30:00Z' },
    });
    expect(answer.created).toBe('2024-01-15T10:30:00.000Z');
    const note = await get(answer.id);
    expect(note.created).toBe('2024-01-15T10:30:00.000Z');
    expect(note.updated).not.toBe(note.created);
    expect(await v.read('general/atomic-habits.md')).toMatch(/^created: '?2024-01-15T10:30:00.000Z'?$/m);
    expect(
      await v.fail('create_note', { title: 'Undated', content: 'x', metadata: { created: 'last spring' } }),
    ).toMatchObject({ error: 'validation_failed', field: 'created' });
    expect(await exists('general/undated.md')).toBe(false);
    // Once created, the date is the vault's: an update cannot move it.
    expect(
      await v.fail('update_note', {
        identifier: answer.id,
        metadata: { created: '2020-01-01' },
        content_hash: note.content_hash,
      }),
    ).toMatchObject({ field: 'created', rule: 'protected' });
  });

  it("the seed's batch example plus bad items: each item succeeds or fails alone", async () => {
    const answer = await v.ok<{
      total: number;
      successful: number;
      failed: number;
      results: Array<Record<string, unknown>>;
    }>('create_note', {
      notes: [
        {
          type: 'general',
          title: 'First Note',
          content: 'Content for the first note',
          metadata: { tags: ['batch', 'import'], priority: 'high' },
        },
        {
          type: 'projects',
          title: 'Second Note',
          content: 'Content for the second note',
          metadata: { status: 'planning' },
        },
        { type: 'general', content: 'no title' },
        { type: 'general', title: 'Typed', content: 42 },
        { type: 'general', title: 'Old', content: 'kept date', metadata: { created: '2023-03-01' } },
      ],
    });
    expect(answer).toMatchObject({ total: 5, successful: 3, failed: 2 });
    expect(answer.results[0]).toMatchObject({
      success: true,
      input: { title: 'First Note' },
      result: { id: 'general/first-note.md', type: 'general', title: 'First Note', filename: 'first-note.md' },
    });
    expect(answer.results[1]).toMatchObject({ success: true, result: { id: 'projects/second-note.md' } });
    expect(answer.results[2]).toMatchObject({
      success: false,
      code: 'validation_failed',
      input: { content: 'no title' },
      error: expect.stringMatching(/title/),
    });
    expect(answer.results[3]).toMatchObject({
      success: false,
      code: 'validation_failed',
      input: { title: 'Typed', content: 42 },
      error: expect.stringMatching(/content/),
    });
    expect(answer.results[4]).toMatchObject({ success: true, result: { created: '2023-03-01T00:00:00.000Z' } });
    expect(await exists('general/first-note.md')).toBe(true);
    expect(await exists('general/typed.md')).toBe(false);
  });
});

describe("5. rename_note / move_note / search_notes_sql answers carry what flint-note's do", () => {
  it('rename_note: filename_unchanged, links_preserved, and broken links to the new title resolved', async () => {
    await v.ok('create_note', { type: 'general', title: 'Roadmap', content: 'x' });
    await v.ok('create_note', {
      type: 'general',
      title: 'Planner',
      content: 'See [[Product Roadmap]] and [[Roadmap]].',
    });
    const broken = await v.ok<{ broken_links: unknown[] }>('find_broken_links', {});
    expect(JSON.stringify(broken)).toContain('Product Roadmap');
    const note = await get('general/roadmap.md');
    const answer = await v.ok<Record<string, unknown>>('rename_note', {
      identifier: 'general/roadmap.md',
      new_title: 'Product Roadmap',
      content_hash: note.content_hash,
    });
    expect(answer).toMatchObject({
      success: true,
      identifier: 'general/roadmap.md',
      filename: 'roadmap.md',
      filename_unchanged: true,
      links_preserved: true,
      broken_links_resolved: 1,
      wikilinks_updated: true,
      total_wikilinks_updated: 1,
    });
    const links = await v.ok<{ outgoing_internal: Array<{ target_note_id: string | null }> }>('get_note_links', {
      identifier: 'general/planner.md',
    });
    expect(links.outgoing_internal.map((l) => l.target_note_id)).toEqual(['general/roadmap.md', 'general/roadmap.md']);
  });

  it('move_note: filename_unchanged and links_preserved', async () => {
    const note = await get('general/roadmap.md');
    const answer = await v.ok<Record<string, unknown>>('move_note', {
      identifier: 'general/roadmap.md',
      new_type: 'projects',
      content_hash: note.content_hash,
    });
    expect(answer).toMatchObject({
      success: true,
      old_identifier: 'general/roadmap.md',
      new_identifier: 'projects/roadmap.md',
      filename: 'roadmap.md',
      filename_unchanged: true,
      links_preserved: true,
    });
  });
});

describe('6. unknown arguments: a near miss is refused, anything else set aside with a notice', () => {
  it("accepts flint-note's timeout (near no real name) and says it was ignored", async () => {
    const answer = await v.ok<{ id: string; notices: string[] }>('get_note', {
      identifier: 'general/first-note.md',
      fields: ['id'],
      timeout: 30000,
    });
    expect(answer).toEqual({
      id: 'general/first-note.md',
      notices: ['Unknown argument "timeout" ignored: get_note takes identifier, fields, vault_id.'],
    });
    const search = await v.ok<{ notices: string[] }>('search_notes', { query: 'first', timeout: 5 });
    expect(search.notices).toEqual([expect.stringMatching(/^Unknown argument "timeout" ignored/)]);
  });

  it('refuses a near miss with did you mean: a typo, another casing, camelCase for snake_case', async () => {
    expect(await v.fail('get_note', { identifier: 'general/first-note.md', feilds: ['id'] })).toMatchObject({
      error: 'validation_failed',
      field: 'feilds',
      suggestion: 'fields',
    });
    expect(await v.fail('search_notes', { query: 'x', limt: 5 })).toMatchObject({ field: 'limt', suggestion: 'limit' });
    const note = await get('general/first-note.md');
    const camel = await v.fail('update_note', { identifier: note.id, content: 'y', contentHash: note.content_hash });
    expect(camel).toMatchObject({ field: 'contentHash', suggestion: 'content_hash' });
    expect(camel.message).toContain('did you mean "content_hash"?');
    expect((await get('general/first-note.md')).content).toBe(note.content);
  });
});

describe("7. titles sort by code point, as flint-note's ORDER BY title", () => {
  it('search_notes_advanced sort by title: upper case before lower case, accents after', async () => {
    await v.ok('create_note_type', { type_name: 'words', description: 'Words' });
    await v.ok('create_note', {
      notes: ['beta', 'Zeta', 'alpha', 'Écho', 'Alpha two'].map((title) => ({ type: 'words', title, content: title })),
    });
    const asc = await v.ok<{ results: Array<{ title: string }> }>('search_notes_advanced', {
      type: 'words',
      sort: [{ field: 'title', order: 'asc' }],
      fields: ['title'],
    });
    expect(asc.results.map((r) => r.title)).toEqual(['Alpha two', 'Zeta', 'alpha', 'beta', 'Écho']);
    const desc = await v.ok<{ results: Array<{ title: string }> }>('search_notes_advanced', {
      type: 'words',
      sort: [{ field: 'title', order: 'desc' }],
      fields: ['title'],
    });
    expect(desc.results.map((r) => r.title)).toEqual(['Écho', 'beta', 'alpha', 'Zeta', 'Alpha two']);
  });
});

describe('8. a misspelt type is refused with did you mean; a clearly new one is made', () => {
  it('refuses a near miss of an existing type, writing no folder', async () => {
    const body = await v.fail('create_note', { type: 'genral', title: 'Stray', content: 'x' });
    expect(body).toMatchObject({
      error: 'validation_failed',
      field: 'type',
      type_name: 'genral',
      suggestion: 'general',
    });
    expect(body.message).toContain("did you mean 'general'?");
    expect(await v.fail('create_note', { type: 'project', title: 'Stray', content: 'x' })).toMatchObject({
      suggestion: 'projects',
    });
    expect(await exists('genral')).toBe(false);
    expect(await exists('project')).toBe(false);
    const batch = await v.ok<{ successful: number; results: Array<Record<string, unknown>> }>('create_note', {
      notes: [
        { type: 'dialy', title: 'Stray', content: 'x' },
        { type: 'general', title: 'Fine', content: 'x' },
      ],
    });
    expect(batch).toMatchObject({
      successful: 1,
      results: [
        { success: false, code: 'validation_failed', error: expect.stringContaining("did you mean 'daily'?") },
        { success: true },
      ],
    });
    expect(await exists('dialy')).toBe(false);
  });

  it('creates a type that is clearly new, as flint-note does', async () => {
    const answer = await v.ok<{ id: string }>('create_note', {
      type: 'recipes',
      title: 'Bread',
      content: 'Flour, water, salt.',
    });
    expect(answer.id).toBe('recipes/bread.md');
    expect(await exists('recipes/bread.md')).toBe(true);
  });
});

describe('8. soft delete, as the seed describes it: gone from the notes, the file preserved', () => {
  it('delete_note soft: true keeps the file under the backups even with create_backups off; a plain delete then keeps none', async () => {
    await v.setConfig('deletion:\n  create_backups: false\n');
    try {
      await v.ok('create_note', { type: 'general', title: 'Old idea', content: 'Worth keeping somewhere.' });
      const soft = await v.ok<{
        success: boolean;
        message: string;
        result: { id: string; deleted: boolean; soft: boolean; backup_path: string };
      }>('delete_note', { identifier: 'general/old-idea.md', confirm: true, soft: true });
      expect(soft).toMatchObject({
        success: true,
        result: {
          id: 'general/old-idea.md',
          deleted: true,
          soft: true,
          backup_path: expect.stringContaining(path.join('.flint-note', 'backups')),
        },
      });
      expect(soft.message).toContain('soft-deleted');
      expect(await fs.readFile(path.join(soft.result.backup_path, 'general/old-idea.md'), 'utf8')).toContain(
        'Worth keeping somewhere.',
      );
      expect(await exists('general/old-idea.md')).toBe(false);
      expect(await v.fail('get_note', { identifier: 'general/old-idea.md' })).toMatchObject({ error: 'not_found' });
      expect((await v.ok<{ total: number }>('search_notes', { query: 'worth keeping' })).total).toBe(0);
      await v.ok('create_note', { type: 'general', title: 'Gone idea', content: 'x' });
      const hard = await v.ok<{ result: Record<string, unknown> }>('delete_note', {
        identifier: 'general/gone-idea.md',
        confirm: true,
      });
      expect(hard.result).not.toHaveProperty('backup_path');
      expect(hard.result).not.toHaveProperty('soft');
    } finally {
      await v.setConfig('');
    }
  });
});
