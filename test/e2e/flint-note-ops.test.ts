/**
 * Note tools end to end over stdio, continued: rename_note, move_note, get_note_info,
 * list_notes_by_type and analyze_note, each happy path and each documented error.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFlint, type FlintSession } from '../support/flint-session.js';

let v: FlintSession;
const get = (identifier: string) =>
  v.ok<{ content: string; content_hash: string; title: string; metadata: Record<string, unknown>; type: string }>(
    'get_note',
    { identifier },
  );

beforeAll(async () => {
  v = await startFlint('nk-e2e-note-ops-');
  await v.ok('create_note', {
    notes: [
      { type: 'general', title: 'Note Two', content: 'Both.' },
      { type: 'general', title: 'Batch A', content: 'a' },
      { type: 'projects', title: 'Website', content: 'Plan.', metadata: { status: 'active' } },
    ],
  });
});
afterAll(async () => {
  await v?.close();
});

describe('rename_note', () => {
  it('changes the title only (id, filename and content stay) and rewrites inbound wikilinks', async () => {
    await v.ok('create_note', { title: 'Linker', content: 'See [[Note Two]] and [[Note Two|the second]].' });
    const note = await get('general/note-two.md');
    const answer = await v.ok<Record<string, unknown>>('rename_note', {
      identifier: 'general/note-two.md',
      new_title: 'Second Thoughts',
      content_hash: note.content_hash,
    });
    expect(answer).toMatchObject({
      success: true,
      identifier: 'general/note-two.md',
      filename: 'note-two.md',
      old_title: 'Note Two',
      new_title: 'Second Thoughts',
      wikilinks_updated: true,
      notes_with_updated_wikilinks: 1,
      total_wikilinks_updated: 2,
    });
    expect(answer.warnings).toBeUndefined();
    expect((await get('general/linker.md')).content).toBe(
      'See [[Second Thoughts]] and [[Second Thoughts|the second]].',
    );
    const after = await get('general/note-two.md');
    expect(after).toMatchObject({
      title: 'Second Thoughts',
      content: 'Both.',
      metadata: { title: 'Second Thoughts', filename: 'note-two' },
    });
    expect(answer.content_hash).toBe(after.content_hash);
  });

  it('refuses a stale hash, a missing hash, an empty or multi-line title, and a missing note', async () => {
    expect(
      await v.fail('rename_note', { identifier: 'general/note-two.md', new_title: 'X', content_hash: 'sha256:old' }),
    ).toMatchObject({ error: 'content_hash_mismatch', provided_hash: 'sha256:old' });
    expect(await v.fail('rename_note', { identifier: 'general/note-two.md', new_title: 'X' })).toMatchObject({
      error: 'validation_failed',
      fields: ['content_hash'],
    });
    const hash = (await get('general/note-two.md')).content_hash;
    expect(
      await v.fail('rename_note', { identifier: 'general/note-two.md', new_title: '  ', content_hash: hash }),
    ).toMatchObject({ fields: ['new_title'] });
    expect(
      await v.fail('rename_note', { identifier: 'general/note-two.md', new_title: 'a\nb', content_hash: hash }),
    ).toMatchObject({ fields: ['new_title'] });
    expect(
      await v.fail('rename_note', { identifier: 'general/ghost.md', new_title: 'X', content_hash: hash }),
    ).toMatchObject({ error: 'not_found' });
    expect((await get('general/note-two.md')).title).toBe('Second Thoughts');
  });
});

describe('move_note', () => {
  it('moves to another type keeping filename, title, content and metadata, and says what the new type expects', async () => {
    const note = await get('general/batch-a.md');
    const answer = await v.ok<Record<string, unknown>>('move_note', {
      identifier: 'general/batch-a.md',
      new_type: 'todos',
      content_hash: note.content_hash,
    });
    expect(answer).toMatchObject({
      success: true,
      old_identifier: 'general/batch-a.md',
      new_identifier: 'todos/batch-a.md',
      old_type: 'general',
      new_type: 'todos',
      filename: 'batch-a.md',
      title: 'Batch A',
    });
    expect(answer.warnings).toEqual(
      expect.arrayContaining([expect.stringMatching(/In note type 'todos': Required field 'priority' is missing/)]),
    );
    expect(await v.fail('get_note', { identifier: 'general/batch-a.md' })).toMatchObject({ error: 'not_found' });
    expect(await get('todos/batch-a.md')).toMatchObject({ type: 'todos', content: 'a', title: 'Batch A' });
  });

  it('refuses a stale hash, an unknown or invalid type, the same type and a filename clash', async () => {
    const note = await get('todos/batch-a.md');
    expect(
      await v.fail('move_note', { identifier: 'todos/batch-a.md', new_type: 'general', content_hash: 'sha256:old' }),
    ).toMatchObject({ error: 'content_hash_mismatch' });
    expect(
      await v.fail('move_note', {
        identifier: 'todos/batch-a.md',
        new_type: 'nowhere',
        content_hash: note.content_hash,
      }),
    ).toMatchObject({ error: 'not_found', type_name: 'nowhere' });
    expect(
      await v.fail('move_note', { identifier: 'todos/batch-a.md', new_type: '../x', content_hash: note.content_hash }),
    ).toMatchObject({ error: 'validation_failed', field: 'new_type' });
    expect(
      await v.fail('move_note', { identifier: 'todos/batch-a.md', new_type: 'todos', content_hash: note.content_hash }),
    ).toMatchObject({ error: 'validation_failed' });
    await v.ok('create_note', { type: 'general', title: 'Batch A', content: 'again' });
    expect(
      await v.fail('move_note', {
        identifier: 'todos/batch-a.md',
        new_type: 'general',
        content_hash: note.content_hash,
      }),
    ).toMatchObject({ error: 'conflict' });
    expect(await get('todos/batch-a.md')).toMatchObject({ content: 'a' });
  });
});

describe('get_note_info and list_notes_by_type', () => {
  it('finds a note by title or filename and gives its wikilink forms', async () => {
    const byTitle = await v.ok<Record<string, unknown>>('get_note_info', { title_or_filename: 'second thoughts' });
    expect(byTitle).toMatchObject({
      found: true,
      id: 'general/note-two.md',
      filename: 'note-two',
      title: 'Second Thoughts',
      type: 'general',
      wikilink_format: 'general/note-two',
      suggested_wikilink: '[[general/note-two|Second Thoughts]]',
    });
    expect(await v.ok('get_note_info', { title_or_filename: 'note-two.md' })).toMatchObject({
      id: 'general/note-two.md',
    });
    expect(await v.ok('get_note_info', { filename: 'website', type: 'projects' })).toMatchObject({
      id: 'projects/website.md',
    });
    expect(await v.ok('get_note_info', { title_or_filename: 'no such thing' })).toEqual({
      found: false,
      message: 'No note found with title or filename: no such thing',
    });
    expect(await v.fail('get_note_info', {})).toMatchObject({
      error: 'validation_failed',
      fields: ['title_or_filename'],
    });
  });

  it("lists a type's notes, newest first, with a limit", async () => {
    const rows = await v.ok<Array<Record<string, unknown>>>('list_notes_by_type', { type: 'general' });
    expect(rows.map((r) => r.id).sort()).toEqual([
      'general/batch-a.md',
      'general/linker.md',
      'general/note-two.md',
      'general/welcome-to-your-vault.md',
    ]);
    expect(rows[0]).toMatchObject({
      id: 'general/batch-a.md',
      wikilink_format: 'general/batch-a',
      suggested_wikilink: '[[general/batch-a|Batch A]]',
    });
    expect(await v.ok<unknown[]>('list_notes_by_type', { type: 'general', limit: 1 })).toHaveLength(1);
    expect(await v.fail('list_notes_by_type', { type: 'nowhere' })).toMatchObject({
      error: 'not_found',
      available: expect.arrayContaining(['general']),
    });
    expect(await v.fail('list_notes_by_type', { type: '../x' })).toMatchObject({ error: 'validation_failed' });
  });
});

describe('analyze_note', () => {
  it("reports schema gaps, invalid values, unknown fields and the type's instructions, deterministically", async () => {
    const note = await get('todos/batch-a.md');
    await v.ok('update_note', {
      identifier: 'todos/batch-a.md',
      content: 'Call [[Nobody Yet]] about it.',
      content_hash: note.content_hash,
    });
    // Written by hand, as another program would (update_note would refuse the bad status), and
    // atomically: the server's file watcher must never catch the file half-written.
    const text = (await v.read('todos/batch-a.md')).replace('tags: []', 'tags: []\nstatus: someday\nowner: me');
    await fs.writeFile(path.join(v.root, 'todos', '.edit.tmp'), text);
    await fs.rename(path.join(v.root, 'todos', '.edit.tmp'), path.join(v.root, 'todos', 'batch-a.md'));
    const first = await v.ok<Record<string, unknown>>('analyze_note', { identifier: 'todos/batch-a.md' });
    expect(first).toMatchObject({
      id: 'todos/batch-a.md',
      type: 'todos',
      missing_required: ['priority'],
      invalid_fields: [expect.objectContaining({ field: 'status', rule: 'options', value: 'someday' })],
      unknown_fields: ['owner'],
      missing_optional: ['due_date', 'estimated_time'],
      broken_links: [{ target: 'Nobody Yet', line_number: 1 }],
      links_checked: true,
    });
    expect(first.agent_instructions).toEqual(expect.arrayContaining(['Ask about priorities and deadlines']));
    expect(first.suggestions).toEqual([
      "Add the required metadata field 'priority'.",
      expect.stringMatching(
        /^Fix Field 'status' must be one of: not_started, in_progress, completed, on_hold, cancelled \(got "someday"\)\.$/,
      ),
      "Field 'owner' is not in the 'todos' schema: add it with update_note_type or remove it from the note.",
      'Link [[Nobody Yet]] on line 1 points to no note: create that note or correct the link.',
      'Consider filling the optional fields: due_date, estimated_time.',
    ]);
    expect(await v.ok('analyze_note', { identifier: 'todos/batch-a.md' })).toEqual(first);
  });

  it('answers not_found for a missing note', async () => {
    expect(await v.fail('analyze_note', { identifier: 'todos/ghost.md' })).toMatchObject({ error: 'not_found' });
  });
});
