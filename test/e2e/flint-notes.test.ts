/**
 * Note tools end to end over stdio: create_note's agent context, get_notes and update_note
 * (single and batch), each happy path and each documented error, plus the bad inputs.
 * rename/move/info/list/analyze are in flint-note-ops.test.ts.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFlint, type FlintSession } from '../support/flint-session.js';

let v: FlintSession;
const hashOf = async (rel: string) =>
  `sha256:${createHash('sha256')
    .update(await v.read(rel))
    .digest('hex')}`;
const get = (identifier: string) =>
  v.ok<{ content: string; content_hash: string; title: string; metadata: Record<string, unknown>; type: string }>(
    'get_note',
    { identifier },
  );

beforeAll(async () => {
  v = await startFlint('nk-e2e-notes-');
  await v.ok('create_note', {
    notes: [
      { type: 'general', title: 'Note One', content: 'First body.', metadata: { tags: ['alpha'] } },
      { type: 'general', title: 'Note Two', content: 'Second body.' },
      { type: 'projects', title: 'Website', content: 'Plan.', metadata: { status: 'active' } },
    ],
  });
});
afterAll(async () => {
  await v?.close();
});

describe('create_note', () => {
  it("answers with the type's agent instructions, next steps and the serving vault", async () => {
    const answer = await v.ok<Record<string, unknown>>('create_note', {
      type: 'daily',
      title: '2024-01-15',
      content: 'Good day.',
      metadata: { date: '2024-01-15', mood: 'good' },
    });
    expect(answer).toMatchObject({
      id: 'daily/2024-01-15.md',
      type: 'daily',
      vault_id: path.basename(v.root),
      vault_name: path.basename(v.root),
    });
    expect(answer.agent_instructions).toEqual(
      expect.arrayContaining(['Ask about key events and accomplishments from the day']),
    );
    expect(answer.next_suggestions).toMatch(/^Consider following these guidelines for daily notes: /);
    expect(answer.warnings).toBeUndefined();
  });

  it('refuses schema violations naming the field, the rule and the value, writing nothing', async () => {
    const before = await v.files();
    const body = await v.fail('create_note', {
      type: 'daily',
      title: 'Bad day',
      content: 'x',
      metadata: { date: '2024-13-45', energy_level: 11 },
    });
    expect(body).toMatchObject({
      error: 'validation_failed',
      type: 'daily',
      field: 'date',
      rule: 'date',
      value: '2024-13-45',
      fields: ['date', 'energy_level'],
    });
    expect(body.message).toMatch(/Field 'energy_level' must be at most 10 \(got 11\)/);
    expect(await v.files()).toEqual(before);
  });

  it('reports per-item results in a batch, a failed item leaving the others written', async () => {
    const answer = await v.ok<{
      total: number;
      successful: number;
      failed: number;
      vault_id: string;
      results: Array<Record<string, unknown>>;
    }>('create_note', {
      notes: [
        { type: 'general', title: 'Batch A', content: 'a' },
        { type: 'daily', title: 'Batch B', content: 'b' },
        { type: 'general', title: 'Note One', content: 'duplicate' },
      ],
    });
    expect(answer).toMatchObject({ total: 3, successful: 1, failed: 2, vault_id: path.basename(v.root) });
    expect(answer.results[0]).toMatchObject({ success: true, result: { id: 'general/batch-a.md' } });
    expect(answer.results[1]).toMatchObject({
      success: false,
      code: 'validation_failed',
      error: expect.stringMatching(/Required field 'date' is missing/),
    });
    expect(answer.results[2]).toMatchObject({ success: false, code: 'conflict' });
  });
});

describe('get_notes', () => {
  it('returns each note with its hash, and a missing one fails only its item', async () => {
    const answer = await v.ok<{
      success: boolean;
      results: Array<Record<string, unknown>>;
      total_requested: number;
      successful: number;
      failed: number;
    }>('get_notes', {
      identifiers: ['general/note-one.md', 'projects/website', 'daily/missing.md'],
    });
    expect(answer).toMatchObject({ success: true, total_requested: 3, successful: 2, failed: 1 });
    expect(answer.results[0]).toMatchObject({
      success: true,
      note: {
        id: 'general/note-one.md',
        title: 'Note One',
        content: 'First body.',
        content_hash: await hashOf('general/note-one.md'),
      },
    });
    expect(answer.results[1]).toMatchObject({
      success: true,
      note: { id: 'projects/website.md', metadata: { status: 'active' } },
    });
    expect(answer.results[2]).toEqual({ success: false, error: 'Note not found: daily/missing.md', code: 'not_found' });
  });

  it('filters fields exactly as the seed shows', async () => {
    const answer = await v.ok<{ results: Array<{ note: unknown }> }>('get_notes', {
      identifiers: ['general/note-one.md', 'projects/website.md'],
      fields: ['id', 'title', 'type', 'metadata.tags', 'content_hash', 'bogus'],
    });
    expect(answer.results[0]?.note).toEqual({
      id: 'general/note-one.md',
      title: 'Note One',
      type: 'general',
      content_hash: await hashOf('general/note-one.md'),
      metadata: { tags: ['alpha'] },
    });
    expect(answer.results[1]?.note).toEqual({
      id: 'projects/website.md',
      title: 'Website',
      type: 'projects',
      content_hash: await hashOf('projects/website.md'),
      metadata: { tags: [] },
    });
    const metaOnly = await v.ok<{ results: Array<{ note: Record<string, unknown> }> }>('get_notes', {
      identifiers: ['projects/website.md'],
      fields: ['id', 'metadata.*'],
    });
    expect(Object.keys(metaOnly.results[0]?.note ?? {})).toEqual(['id', 'metadata']);
    const none = await v.ok<{ results: Array<{ note: unknown }> }>('get_notes', {
      identifiers: ['projects/website.md'],
      fields: [],
    });
    expect(none.results[0]?.note).toEqual({ id: 'projects/website.md' });
  });

  it('refuses an empty list, and an identifier leaving the vault fails its item', async () => {
    expect(await v.fail('get_notes', { identifiers: [] })).toMatchObject({
      error: 'validation_failed',
      fields: ['identifiers'],
    });
    const answer = await v.ok<{ results: Array<Record<string, unknown>> }>('get_notes', {
      identifiers: ['../../etc/passwd'],
    });
    expect(answer.results[0]).toMatchObject({ success: false, code: 'path_outside_vault' });
  });
});

describe('update_note', () => {
  it('updates content only, keeping metadata', async () => {
    const note = await get('general/note-one.md');
    const answer = await v.ok<{ id: string; updated: boolean; timestamp: string; content_hash: string }>(
      'update_note',
      { identifier: 'general/note-one.md', content: 'New body.', content_hash: note.content_hash },
    );
    expect(answer).toMatchObject({ id: 'general/note-one.md', updated: true });
    expect(answer.content_hash).toBe(await hashOf('general/note-one.md'));
    const after = await get('general/note-one.md');
    expect(after.content).toBe('New body.');
    expect(after.metadata.tags).toEqual(['alpha']);
    expect(after.metadata.updated).toBe(answer.timestamp);
  });

  it('updates metadata only (merged; null removes a field), keeping content', async () => {
    const note = await get('general/note-one.md');
    await v.ok('update_note', {
      identifier: 'general/note-one.md',
      metadata: { tags: ['beta'], source: 'web' },
      content_hash: note.content_hash,
    });
    const mid = await get('general/note-one.md');
    expect(mid).toMatchObject({ content: 'New body.', metadata: { tags: ['beta'], source: 'web', title: 'Note One' } });
    await v.ok('update_note', {
      identifier: 'general/note-one.md',
      metadata: { source: null },
      content_hash: mid.content_hash,
    });
    expect((await get('general/note-one.md')).metadata).not.toHaveProperty('source');
  });

  it('updates both at once', async () => {
    const note = await get('general/note-two.md');
    await v.ok('update_note', {
      identifier: 'general/note-two.md',
      content: 'Both.',
      metadata: { tags: ['x'] },
      content_hash: note.content_hash,
    });
    expect(await get('general/note-two.md')).toMatchObject({ content: 'Both.', metadata: { tags: ['x'] } });
  });

  it("refuses a stale hash with the seed's exact error body, leaving the file alone", async () => {
    const text = await v.read('general/note-two.md');
    const body = await v.fail('update_note', {
      identifier: 'general/note-two.md',
      content: 'lost',
      content_hash: 'sha256:a1b2c3',
    });
    expect(body).toMatchObject({
      error: 'content_hash_mismatch',
      message: 'Note content has been modified since last read. Please fetch the latest version.',
      current_hash: await hashOf('general/note-two.md'),
      provided_hash: 'sha256:a1b2c3',
    });
    expect(await v.read('general/note-two.md')).toBe(text);
  });

  it('requires content_hash, content or metadata, and an existing note', async () => {
    const missing = await v.fail('update_note', { identifier: 'general/note-two.md', content: 'x' });
    expect(missing).toMatchObject({ error: 'validation_failed', fields: ['content_hash'] });
    expect(missing.message).toMatch(/read the note \(get_note or get_notes\)/);
    const hash = (await get('general/note-two.md')).content_hash;
    expect(await v.fail('update_note', { identifier: 'general/note-two.md', content_hash: hash })).toMatchObject({
      error: 'validation_failed',
      field: 'content',
    });
    expect(
      await v.fail('update_note', { identifier: 'general/ghost.md', content: 'x', content_hash: hash }),
    ).toMatchObject({ error: 'not_found' });
    expect(
      await v.fail('update_note', {
        identifier: 'projects/website.md',
        metadata: { type: 'general' },
        content_hash: (await get('projects/website.md')).content_hash,
      }),
    ).toMatchObject({ rule: 'protected' });
  });

  it('rejects a whole batch when any item lacks a hash, writing nothing', async () => {
    const one = await v.read('general/note-one.md');
    const body = await v.fail('update_note', {
      updates: [
        { identifier: 'general/note-one.md', content: 'batch', content_hash: await hashOf('general/note-one.md') },
        { identifier: 'general/note-two.md', content: 'batch' },
      ],
    });
    expect(body).toMatchObject({ error: 'validation_failed', fields: ['updates.1.content_hash'] });
    expect(await v.read('general/note-one.md')).toBe(one);
  });

  it('fails only the mismatched item of a batch, with current and provided hashes', async () => {
    const currentTwo = await hashOf('general/note-two.md');
    const answer = await v.ok<{
      total: number;
      successful: number;
      failed: number;
      results: Array<Record<string, unknown>>;
    }>('update_note', {
      updates: [
        { identifier: 'general/note-one.md', content: 'Batch one.', content_hash: await hashOf('general/note-one.md') },
        { identifier: 'general/note-two.md', content: 'Batch two.', content_hash: 'sha256:old' },
        {
          identifier: 'projects/website.md',
          metadata: { status: 'completed' },
          content_hash: await hashOf('projects/website.md'),
        },
      ],
    });
    expect(answer).toMatchObject({ total: 3, successful: 2, failed: 1 });
    expect(answer.results[1]).toMatchObject({
      success: false,
      code: 'content_hash_mismatch',
      hash_mismatch: { current_hash: currentTwo, provided_hash: 'sha256:old' },
      input: { identifier: 'general/note-two.md' },
    });
    expect((await get('general/note-one.md')).content).toBe('Batch one.');
    expect((await get('general/note-two.md')).content).toBe('Both.');
    expect((await get('projects/website.md')).metadata.status).toBe('completed');
  });
});
