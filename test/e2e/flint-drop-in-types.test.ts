/**
 * Issue 31, flint (seed 000), note types, end to end over a real SDK client on the built
 * `notekernel serve`: the default reading type stores a reading note as its own schema asks
 * (and an existing vault's reading type is migrated), update_note_type in the seed table's
 * `field` / `value` form, and the vault config's `note_types` settings honoured.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFlint, type FlintSession } from '../support/flint-session.js';
import { connectStdio, callTool } from '../support/mcp.js';
import { runCli } from '../support/run-cli.js';
import { removeDir, tempDir } from '../support/temp.js';

let v: FlintSession;
beforeAll(async () => {
  v = await startFlint('nk-e2e-dropin-types-');
});
afterAll(async () => {
  await v?.close();
});

interface TypeInfo {
  content_hash: string;
  description: string;
  agent_instructions: string[];
  metadata_schema: {
    fields: Array<{ name: string; type: string; required?: boolean; constraints?: { options?: string[] } }>;
  };
}
const OLD_LINE =
  '- type: Type of reading (required, select, options: ["book", "article", "paper", "blog_post", "documentation"])';

describe('the default reading type (seed 000 "Reading Notes")', () => {
  it('asks for reading_type, not the reserved type, and stores a reading note as its schema asks', async () => {
    const info = await v.ok<TypeInfo>('get_note_type_info', { type_name: 'reading' });
    const names = info.metadata_schema.fields.map((f) => f.name);
    expect(names).toContain('reading_type');
    expect(names).not.toContain('type');
    expect(info.metadata_schema.fields.find((f) => f.name === 'reading_type')).toMatchObject({
      type: 'select',
      required: true,
      constraints: { options: ['book', 'article', 'paper', 'blog_post', 'documentation'] },
    });
    // The seed's own example note ("Atomic Habits"), with every field the reading schema requires.
    const created = await v.ok<{ id: string }>('create_note', {
      type: 'reading',
      title: 'Atomic Habits',
      content: '# Atomic Habits\n\n## Summary\nExcellent book about building good habits and breaking bad ones...',
      metadata: {
        author: 'James Clear',
        reading_type: 'book',
        status: 'completed',
        rating: 5,
        tags: ['productivity', 'habits'],
      },
    });
    const note = await v.ok<{ type: string; metadata: Record<string, unknown> }>('get_note', {
      identifier: created.id,
    });
    expect(note.type).toBe('reading');
    expect(note.metadata).toMatchObject({ type: 'reading', reading_type: 'book', author: 'James Clear', rating: 5 });
  });

  it('refuses metadata.type ("book"), saying the kind of reading goes in reading_type; nothing is written', async () => {
    const before = await v.files();
    const err = await v.fail('create_note', {
      type: 'reading',
      title: 'Deep Work',
      content: 'x',
      metadata: { author: 'Cal Newport', type: 'book', status: 'reading', rating: 4 },
    });
    expect(err.error).toBe('validation_failed');
    expect(err.message).toMatch(/'type' is managed by the vault/);
    expect(err.message).toMatch(/set metadata\.reading_type/);
    expect(await v.files()).toEqual(before);
  });

  it("an existing vault whose reading type still has the old 'type' line is migrated at open; a type of the user's own with such a field is explained", async () => {
    const root = await tempDir('nk-e2e-dropin-oldreading-');
    expect((await runCli(['init', root])).code).toBe(0);
    const file = path.join(root, 'reading', '_description.md');
    const current = await fs.readFile(file, 'utf8');
    const old = current
      .replace(/^- reading_type: .*$/m, OLD_LINE)
      .replace('## Purpose', '## Purpose\n<!-- my own words stay -->');
    expect(old).toContain(OLD_LINE);
    await fs.writeFile(file, old);
    await fs.mkdir(path.join(root, 'media'));
    await fs.writeFile(
      path.join(root, 'media', '_description.md'),
      '# Media\n\n## Purpose\nFilms and series\n\n## Metadata Schema\n- type: Kind of media (required, select, options: ["film", "series"])\n',
    );
    const session = await connectStdio(['serve', '--profile', 'flint', '--vault', root]);
    try {
      const migrated = await fs.readFile(file, 'utf8');
      expect(migrated).toBe(old.replace(OLD_LINE, OLD_LINE.replace('- type:', '- reading_type:')));
      const ok = await callTool(session.client, 'create_note', {
        type: 'reading',
        title: 'Thinking, Fast and Slow',
        content: 'x',
        metadata: { author: 'Daniel Kahneman', reading_type: 'book', status: 'to_read', rating: 5 },
      });
      expect(ok.isError).toBe(false);
      const media = await callTool(session.client, 'create_note', {
        type: 'media',
        title: 'Dune',
        content: 'x',
        metadata: { type: 'film' },
      });
      expect(media.isError).toBe(true);
      expect((media.body as { message: string }).message).toMatch(
        /schema of 'media' names a field 'type'.*rename that field in media\/_description\.md/,
      );
    } finally {
      await session.close();
      await removeDir(root);
    }
  });
});

describe('update_note_type in the seed table form: field + value', () => {
  const hash = async (type: string) => (await v.ok<TypeInfo>('get_note_type_info', { type_name: type })).content_hash;

  it('field "instructions" with value replaces the agent instructions', async () => {
    const answer = await v.ok('update_note_type', {
      type_name: 'reading',
      field: 'instructions',
      value: 'Updated instructions for reading notes...\n- Ask for the rating',
      content_hash: await hash('reading'),
    });
    expect(answer).toMatchObject({ success: true, fields_updated: ['instructions'] });
    const info = await v.ok<TypeInfo>('get_note_type_info', { type_name: 'reading' });
    expect(info.agent_instructions).toEqual(['Updated instructions for reading notes...', 'Ask for the rating']);
  });

  it('field "description" with value replaces the purpose', async () => {
    await v.ok('update_note_type', {
      type_name: 'reading',
      field: 'description',
      value: 'Enhanced note type for tracking books and articles',
      content_hash: await hash('reading'),
    });
    expect((await v.ok<TypeInfo>('get_note_type_info', { type_name: 'reading' })).description).toBe(
      'Enhanced note type for tracking books and articles',
    );
  });

  it('field "metadata_schema" takes the seed\'s field array, as JSON text too, and schema bullet lines', async () => {
    const fields = [
      { name: 'author', type: 'string', required: true, description: 'Author name' },
      {
        name: 'rating',
        type: 'number',
        required: true,
        description: 'Personal rating',
        constraints: { min: 1, max: 5 },
      },
    ];
    await v.ok('update_note_type', {
      type_name: 'goals',
      field: 'metadata_schema',
      value: fields,
      content_hash: await hash('goals'),
    });
    expect(
      (await v.ok<TypeInfo>('get_note_type_info', { type_name: 'goals' })).metadata_schema.fields.map((f) => f.name),
    ).toEqual(['author', 'rating']);

    await v.ok('update_note_type', {
      type_name: 'goals',
      field: 'metadata_schema',
      value: JSON.stringify({ fields: fields.slice(0, 1) }),
      content_hash: await hash('goals'),
    });
    expect(
      (await v.ok<TypeInfo>('get_note_type_info', { type_name: 'goals' })).metadata_schema.fields.map((f) => f.name),
    ).toEqual(['author']);

    await v.ok('update_note_type', {
      type_name: 'goals',
      field: 'metadata_schema',
      value:
        '- progress: Progress percentage (optional, number, min: 0, max: 100)\n- tags: Related themes (optional, array)',
      content_hash: await hash('goals'),
    });
    expect(await v.read('goals/_description.md')).toContain(
      '- progress: Progress percentage (optional, number, min: 0, max: 100)\n- tags: Related themes (optional, array)',
    );
  });

  it('refuses field "template", field beside its named argument, value without field and a bad schema line, writing nothing', async () => {
    const before = await v.read('goals/_description.md');
    const content_hash = await hash('goals');
    const template = await v.fail('update_note_type', {
      type_name: 'goals',
      field: 'template',
      value: '# x',
      content_hash,
    });
    expect(template).toMatchObject({ error: 'validation_failed', fields: ['field'] });
    expect(template.message).toMatch(/no templates/);
    const twice = await v.fail('update_note_type', {
      type_name: 'goals',
      field: 'description',
      value: 'a',
      description: 'b',
      content_hash,
    });
    expect(twice.message).toMatch(/given twice/);
    expect((await v.fail('update_note_type', { type_name: 'goals', value: 'a', content_hash })).message).toMatch(
      /value needs field/,
    );
    const bad = await v.fail('update_note_type', {
      type_name: 'goals',
      field: 'metadata_schema',
      value: '- rating: Rating (required, nmber)',
      content_hash,
    });
    expect(bad).toMatchObject({ error: 'validation_failed', field: 'value' });
    expect(await v.read('goals/_description.md')).toBe(before);
  });
});

describe('vault config note_types (seed 000 .flint-note/config.yml)', () => {
  const config = (autoCreate: boolean, requireDescriptions: boolean) =>
    v.setConfig(
      `default_note_type: general\nnote_types:\n  auto_create_directories: ${autoCreate}\n  require_descriptions: ${requireDescriptions}\n`,
    );
  afterAll(async () => {
    await config(true, true);
  });

  it('auto_create_directories: false refuses a note of a type with no folder, naming the types; nothing is created', async () => {
    await config(false, true);
    const before = await v.files();
    const err = await v.fail('create_note', { type: 'meetings', title: 'Standup', content: 'x' });
    expect(err).toMatchObject({ error: 'not_found', type: 'meetings' });
    expect(err.message).toMatch(/auto_create_directories: false/);
    expect(err.available).toEqual(expect.arrayContaining(['projects', 'general']));
    await expect(fs.stat(path.join(v.root, 'meetings'))).rejects.toThrow();
    expect(await v.files()).toEqual(before);
    // A type that exists is fine, and so is a batch item of one, beside a refused one.
    const batch = await v.ok<{ successful: number; failed: number }>('create_note', {
      notes: [
        { type: 'projects', title: 'Real project', content: 'x', metadata: { status: 'active' } },
        { type: 'meetings', title: 'Retro', content: 'x' },
      ],
    });
    expect(batch).toMatchObject({ successful: 1, failed: 1 });
  });

  it('auto_create_directories: true (the default) creates the folder, and require_descriptions writes its _description.md', async () => {
    await config(true, true);
    await v.ok('create_note', { type: 'recipes', title: 'Bread', content: 'flour, water' });
    const description = await v.read('recipes/_description.md');
    expect(description).toMatch(/^# Recipes\n/);
    expect(description).toContain('## Metadata Schema');
    const types = await v.ok<Array<{ name: string; hasDescription: boolean }>>('list_note_types');
    expect(types.find((t) => t.name === 'recipes')).toMatchObject({ hasDescription: true });
  });

  it('require_descriptions: false leaves a new type without _description.md', async () => {
    await config(true, false);
    await v.ok('create_note', { type: 'scratch', title: 'Loose thought', content: 'x' });
    expect(await v.files()).toContain('scratch/loose-thought.md');
    expect(await v.files()).not.toContain('scratch/_description.md');
  });
});
