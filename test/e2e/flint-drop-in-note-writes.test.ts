/**
 * Issue 31, flint (seed 000) and flint-note's own integration tests, continued from
 * flint-drop-in-notes.test.ts: create_note, rename_note, move_note and delete_note answers,
 * unknown arguments, title sort order and misspelt types, as a prompt written for flint-note
 * sends them, through a real SDK client over stdio on the built CLI.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFlint, type FlintSession } from '../support/flint-session.js';
import { fileExists, getNote } from './flint-drop-in/notes.js';

let v: FlintSession;
const get = (identifier: string) => getNote(v, identifier);
const exists = (rel: string) => fileExists(v, rel);

beforeAll(async () => {
  v = await startFlint('nk-e2e-drop-in-writes-');
});
afterAll(async () => {
  await v?.close();
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
