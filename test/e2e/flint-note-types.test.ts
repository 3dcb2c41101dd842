/**
 * Note-type tools end to end over stdio (real SDK client, built server, `notekernel init`
 * vault): create_note_type, get_note_type_info, update_note_type and a malformed
 * `_description.md`, each happy path and each documented error (delete_note_type: flint-note-type-delete.test.ts).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFlint, type FlintSession } from '../support/flint-session.js';

let v: FlintSession;
beforeAll(async () => {
  v = await startFlint('nk-e2e-types-');
});
afterAll(async () => {
  await v?.close();
});

const sha = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;
interface TypeInfo {
  type_name: string;
  description: string;
  agent_instructions: string[];
  metadata_schema: { fields: Array<Record<string, unknown>> };
  content_hash: string;
  path: string;
  created: string;
  updated: string;
  schema_errors?: string[];
}

const bookSchema = [
  { name: 'author', type: 'string', required: true, description: 'Author name' },
  { name: 'rating', type: 'number', required: true, description: 'Personal rating', constraints: { min: 1, max: 5 } },
  { name: 'isbn', type: 'string', description: 'ISBN', constraints: { pattern: '^[0-9-]{10,17}$' } },
  {
    name: 'status',
    type: 'select',
    description: 'Reading status',
    constraints: { options: ['to-read', 'reading', 'completed'] },
    default: 'to-read',
  },
];

describe('create_note_type', () => {
  it('creates the folder and a _description.md in the seed format, and tells the tools', async () => {
    const answer = await v.ok('create_note_type', {
      type_name: 'book-reviews',
      description: 'Reviews of books I read',
      agent_instructions: ['Ask for the rating', 'Suggest related books'],
      metadata_schema: { fields: bookSchema },
    });
    expect(answer).toMatchObject({
      success: true,
      message: "Created note type 'book-reviews' successfully",
      type_name: 'book-reviews',
    });
    const text = await v.read('book-reviews/_description.md');
    expect(answer.content_hash).toBe(sha(text));
    expect(text).toContain('## Purpose\nReviews of books I read');
    expect(text).toContain('## Agent Instructions\n- Ask for the rating\n- Suggest related books');
    expect(text).toContain('- rating: Personal rating (required, number, min: 1, max: 5)');
    expect(text).toContain('- isbn: ISBN (optional, string, pattern: "^[0-9-]{10,17}$")');
    expect(text).toContain(
      '- status: Reading status (optional, select, options: ["to-read", "reading", "completed"], default: "to-read")',
    );
    const types = await v.ok<Array<{ name: string }>>('list_note_types');
    expect(types.map((t) => t.name)).toContain('book-reviews');
  });

  it('refuses an existing type (any letter case) with conflict', async () => {
    expect(await v.fail('create_note_type', { type_name: 'reading', description: 'again' })).toMatchObject({
      error: 'conflict',
      type_name: 'reading',
    });
    expect(await v.fail('create_note_type', { type_name: 'Book-Reviews', description: 'again' })).toMatchObject({
      error: 'conflict',
      existing: 'book-reviews',
    });
  });

  it.each([
    ['../escape', 'traversal'],
    ['a/b', 'traversal'],
    ['.flint-note', 'reserved'],
    ['.hidden', 'reserved'],
    ['con', 'reserved'],
    ['with space', 'characters'],
    ['_private', 'characters'],
  ])('refuses the type name %j (%s) and writes nothing', async (name, rule) => {
    const before = await v.files();
    const body = await v.fail('create_note_type', { type_name: name, description: 'x' });
    expect(body).toMatchObject({ error: 'validation_failed', field: 'type_name', rule, value: name });
    expect(await v.files()).toEqual(before);
    await expect(fs.access(path.join(v.root, '..', 'escape'))).rejects.toThrow();
  });

  it('refuses an invalid schema listing every fault, and writes nothing', async () => {
    const body = await v.fail('create_note_type', {
      type_name: 'broken',
      description: 'x',
      metadata_schema: [
        { name: 'mood', type: 'select' },
        { name: 'code', type: 'string', constraints: { pattern: '([' } },
        { name: 'mood', type: 'string' },
      ],
    });
    expect(body).toMatchObject({ error: 'validation_failed', field: 'metadata_schema' });
    expect(body.errors).toEqual([
      expect.stringMatching(/field 'mood': a select field needs options/),
      expect.stringMatching(/field 'code': pattern "\(\[" is not a valid regular expression/),
      expect.stringMatching(/field 'mood': defined twice/),
    ]);
    await expect(fs.access(path.join(v.root, 'broken'))).rejects.toThrow();
  });

  it('refuses an unknown field type at the argument level, naming the field', async () => {
    const body = await v.fail('create_note_type', {
      type_name: 'odd',
      description: 'x',
      metadata_schema: [{ name: 'n', type: 'integer' }],
    });
    expect(body).toMatchObject({ error: 'validation_failed' });
    expect(body.message).toMatch(/metadata_schema/);
  });
});

describe('get_note_type_info', () => {
  it('returns the seed shape with the hash of _description.md, and the JSON schema round-trips', async () => {
    const info = await v.ok<TypeInfo>('get_note_type_info', { type_name: 'book-reviews' });
    expect(info).toMatchObject({
      type_name: 'book-reviews',
      description: 'Reviews of books I read',
      agent_instructions: ['Ask for the rating', 'Suggest related books'],
      path: path.join(v.root, 'book-reviews'),
    });
    expect(info.content_hash).toBe(sha(await v.read('book-reviews/_description.md')));
    expect(info.metadata_schema.fields).toEqual(bookSchema.map((f) => ({ required: false, ...f })));
    expect(Date.parse(info.created)).not.toBeNaN();
    expect(Date.parse(info.updated)).not.toBeNaN();
    expect(info.schema_errors).toBeUndefined();
  });

  it('answers not_found listing the available types, and refuses traversing names', async () => {
    const body = await v.fail('get_note_type_info', { type_name: 'nope' });
    expect(body).toMatchObject({ error: 'not_found', type_name: 'nope' });
    expect(body.available).toEqual(expect.arrayContaining(['general', 'reading', 'book-reviews']));
    expect(await v.fail('get_note_type_info', { type_name: '../general' })).toMatchObject({
      error: 'validation_failed',
      rule: 'traversal',
    });
  });
});

describe('a _description.md with a malformed schema', () => {
  beforeAll(async () => {
    await fs.mkdir(path.join(v.root, 'recipes'));
    await fs.writeFile(
      path.join(v.root, 'recipes', '_description.md'),
      '# Recipes\n\n## Purpose\nThings to cook\n\n## Agent Instructions\n- Ask for servings\n\n## Metadata Schema\n- servings: Servings (required, number, min: 1)\n- time: Minutes (optional, integer)\n- cuisine: Cuisine (optional, select)\n',
    );
  });

  it('still loads the type, and get_note_type_info reports the faults beside the sound fields', async () => {
    const types = await v.ok<Array<{ name: string; purpose: string }>>('list_note_types');
    expect(types.find((t) => t.name === 'recipes')?.purpose).toBe('Things to cook');
    const info = await v.ok<TypeInfo>('get_note_type_info', { type_name: 'recipes' });
    expect(info.metadata_schema.fields.map((f) => f.name)).toEqual(['servings']);
    expect(info.schema_errors).toEqual([
      expect.stringMatching(/field 'time': unknown attribute 'integer'/),
      expect.stringMatching(/field 'cuisine': a select field needs options/),
    ]);
  });

  it('keeps applying the sound fields, and analyze_note reports the faults too', async () => {
    expect(
      await v.fail('create_note', { type: 'recipes', title: 'Soup', content: 'Hot.', metadata: { servings: 0 } }),
    ).toMatchObject({ field: 'servings', rule: 'min', value: 0 });
    const created = await v.ok<{ warnings: string[] }>('create_note', {
      type: 'recipes',
      title: 'Soup',
      content: 'Hot.',
      metadata: { servings: 2, time: 'ten' },
    });
    expect(created.warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/Unknown field 'time'/),
        expect.stringMatching(/schema of note type 'recipes' has faults/),
      ]),
    );
    const analysis = await v.ok<{ schema: { valid: boolean; errors: string[] }; suggestions: string[] }>(
      'analyze_note',
      { identifier: 'recipes/soup.md' },
    );
    expect(analysis.schema.valid).toBe(false);
    expect(analysis.schema.errors).toHaveLength(2);
    expect(analysis.suggestions[0]).toMatch(/metadata schema of note type 'recipes' has faults/);
  });
});

describe('update_note_type', () => {
  it('updates instructions, description and schema in place, keeping other sections', async () => {
    await fs.appendFile(path.join(v.root, 'book-reviews', '_description.md'), '\n## House Rules\nNo spoilers.\n');
    const before = await v.ok<TypeInfo>('get_note_type_info', { type_name: 'book-reviews' });
    const answer = await v.ok<{
      content_hash: string;
      fields_updated: string[];
      updated_info: Record<string, unknown>;
    }>('update_note_type', {
      type_name: 'book-reviews',
      content_hash: before.content_hash,
      instructions: '- Ask what the book changed\nQuote one passage',
      description: 'Book reviews, spoiler-free',
      metadata_schema: [
        { name: 'rating', type: 'number', required: true, description: 'Stars', constraints: { min: 1, max: 10 } },
      ],
    });
    expect(answer).toMatchObject({
      success: true,
      type_name: 'book-reviews',
      fields_updated: ['instructions', 'description', 'metadata_schema'],
      updated_info: {
        name: 'book-reviews',
        purpose: 'Book reviews, spoiler-free',
        agent_instructions: ['Ask what the book changed', 'Quote one passage'],
      },
    });
    const text = await v.read('book-reviews/_description.md');
    expect(answer.content_hash).toBe(sha(text));
    expect(text).toContain('## House Rules\nNo spoilers.');
    const after = await v.ok<TypeInfo>('get_note_type_info', { type_name: 'book-reviews' });
    expect(after.metadata_schema.fields).toEqual([
      { name: 'rating', type: 'number', required: true, description: 'Stars', constraints: { min: 1, max: 10 } },
    ]);
    // The new schema applies to the next write at once.
    await v.ok('create_note', { type: 'book-reviews', title: 'Dune', content: 'x', metadata: { rating: 9 } });
  });

  it('refuses a stale hash with current and provided hashes, and leaves the file alone', async () => {
    const text = await v.read('book-reviews/_description.md');
    const body = await v.fail('update_note_type', {
      type_name: 'book-reviews',
      content_hash: 'sha256:stale',
      description: 'nope',
    });
    expect(body).toMatchObject({
      error: 'content_hash_mismatch',
      current_hash: sha(text),
      provided_hash: 'sha256:stale',
      type_name: 'book-reviews',
    });
    expect(body.message).toMatch(/Note type definition has been modified/);
    expect(await v.read('book-reviews/_description.md')).toBe(text);
  });

  it('requires content_hash, at least one change, an existing type and a sound schema', async () => {
    const missing = await v.fail('update_note_type', { type_name: 'book-reviews', description: 'x' });
    expect(missing).toMatchObject({ error: 'validation_failed', fields: ['content_hash'] });
    expect(missing.message).toMatch(/get_note_type_info/);
    const hash = (await v.ok<TypeInfo>('get_note_type_info', { type_name: 'book-reviews' })).content_hash;
    expect(await v.fail('update_note_type', { type_name: 'book-reviews', content_hash: hash })).toMatchObject({
      error: 'validation_failed',
      fields: ['instructions'],
    });
    expect(
      await v.fail('update_note_type', { type_name: 'ghost', content_hash: hash, description: 'x' }),
    ).toMatchObject({ error: 'not_found' });
    expect(
      await v.fail('update_note_type', {
        type_name: 'book-reviews',
        content_hash: hash,
        metadata_schema: [{ name: 'x', type: 'number', constraints: { min: 3, max: 1 } }],
      }),
    ).toMatchObject({
      error: 'validation_failed',
      field: 'metadata_schema',
    });
  });
});
