/**
 * The beforeWrite hook inside a real kernel (flint profile, temp vault): vault-owned keys,
 * the vault config's validation flags, defaults, and nothing written on failure.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NotekernelError, toNotekernelError, type ErrorBody } from '../../../kernel/errors.js';
import { createKernel } from '../../../app/index.js';
import { silentLogger } from '../../../kernel/logger.js';
import { createTestKernel, type TestKernel } from '../../support/temp.js';

let t: TestKernel;
beforeEach(async () => {
  t = await createTestKernel();
});
afterEach(async () => {
  await t.close();
});

async function fails(name: string, args: unknown): Promise<ErrorBody> {
  try {
    await t.vault.call(name, args);
  } catch (err) {
    return toNotekernelError(err).toBody();
  }
  throw new Error(`${name} succeeded`);
}

async function setConfig(text: string): Promise<void> {
  await fs.writeFile(path.join(t.root, '.flint-note', 'config.yml'), text);
}

const book = {
  type: 'reading',
  title: 'Dune',
  content: 'Spice.',
  metadata: { author: 'Herbert', reading_type: 'book', status: 'reading', rating: 5 },
};

describe('schema hook', () => {
  it('refuses a schema violation naming field, rule and value, and writes nothing', async () => {
    const body = await fails('create_note', { ...book, metadata: { ...book.metadata, rating: 11, status: 'skimmed' } });
    // Issues come in the order of the metadata given: status before rating here.
    expect(body).toMatchObject({
      error: 'validation_failed',
      type: 'reading',
      field: 'status',
      rule: 'options',
      value: 'skimmed',
      fields: ['status', 'rating'],
    });
    expect((body as ErrorBody & { errors: unknown[] }).errors).toContainEqual({
      field: 'rating',
      rule: 'max',
      value: 11,
      message: "Field 'rating' must be at most 5 (got 11)",
    });
    expect(body.message).toMatch(/Field 'rating' must be at most 5 \(got 11\)/);
    expect(body.message).toMatch(
      /Field 'status' must be one of: to_read, reading, completed, abandoned \(got "skimmed"\)/,
    );
    await expect(fs.access(path.join(t.root, 'reading', 'dune.md'))).rejects.toThrow();
  });

  it('refuses a missing required field on create', async () => {
    const body = await fails('create_note', { ...book, metadata: { author: 'Herbert' } });
    expect(body).toMatchObject({
      field: 'reading_type',
      rule: 'required',
      fields: ['reading_type', 'status', 'rating'],
    });
  });

  it('refuses vault-owned keys through metadata, but accepts them sent back unchanged (and created on create, an import)', async () => {
    const created = (await fails('create_note', {
      ...book,
      metadata: { ...book.metadata, created: 'last spring' },
    })) as ErrorBody & { errors: unknown[] };
    expect(created).toMatchObject({ field: 'created', rule: 'date' });

    await t.vault.call('create_note', { ...book, metadata: { ...book.metadata, title: 'Dune' } });
    const note = (await t.vault.call('get_note', { identifier: 'reading/dune.md' })) as {
      content_hash: string;
      metadata: Record<string, unknown>;
    };
    for (const [key, value, hint] of [
      ['title', 'Other', /rename_note/],
      ['type', 'general', /move_note/],
      ['updated', '2020-01-01', /every write/],
      ['created', '2020-01-01', /set by the vault/],
    ] as const) {
      const body = await fails('update_note', {
        identifier: 'reading/dune.md',
        content_hash: note.content_hash,
        metadata: { [key]: value },
      });
      expect(body, key).toMatchObject({ error: 'validation_failed', field: key, rule: 'protected', value });
      expect(body.message).toMatch(hint);
    }
    const echoed = (await t.vault.call('update_note', {
      identifier: 'reading/dune.md',
      content_hash: note.content_hash,
      metadata: { ...note.metadata, rating: 4 },
    })) as { updated: boolean };
    expect(echoed.updated).toBe(true);
  });

  it('on update checks only changed keys, and lets content-only edits through a now-stricter schema', async () => {
    await t.vault.call('create_note', book);
    await fs.appendFile(
      path.join(t.root, 'reading', '_description.md'),
      '- pages: Page count (required, number, min: 1)\n',
    );
    const note = (await t.vault.call('get_note', { identifier: 'reading/dune.md' })) as { content_hash: string };
    const edited = (await t.vault.call('update_note', {
      identifier: 'reading/dune.md',
      content_hash: note.content_hash,
      content: 'More spice.',
    })) as { content_hash: string };
    const body = await fails('update_note', {
      identifier: 'reading/dune.md',
      content_hash: edited.content_hash,
      metadata: { rating: 3 },
    });
    expect(body).toMatchObject({ field: 'pages', rule: 'required' });
  });

  it('fills schema defaults on create', async () => {
    const hash = ((await t.vault.call('get_note_type_info', { type_name: 'todos' })) as { content_hash: string })
      .content_hash;
    await t.vault.call('update_note_type', {
      type_name: 'todos',
      content_hash: hash,
      metadata_schema: [
        { name: 'priority', type: 'select', required: true, constraints: { options: ['low', 'high'] }, default: 'low' },
        {
          name: 'status',
          type: 'select',
          required: false,
          constraints: { options: ['open', 'done'] },
          default: 'open',
        },
      ],
    });
    await t.vault.call('create_note', { type: 'todos', title: 'Buy milk', content: '' });
    const note = (await t.vault.call('get_note', { identifier: 'todos/buy-milk.md', fields: ['metadata.*'] })) as {
      metadata: Record<string, unknown>;
    };
    expect(note.metadata).toMatchObject({ priority: 'low', status: 'open' });
  });

  it('honours validate_on_create, validate_on_update and strict_validation from .flint-note/config.yml', async () => {
    await setConfig('metadata:\n  strict_validation: true\n');
    expect(await fails('create_note', { ...book, metadata: { ...book.metadata, mood: 'good' } })).toMatchObject({
      field: 'mood',
      rule: 'unknown_field',
    });

    await setConfig('metadata:\n  validate_on_create: false\n');
    await t.vault.call('create_note', { ...book, metadata: { rating: 99 } });
    const note = (await t.vault.call('get_note', { identifier: 'reading/dune.md' })) as { content_hash: string };

    await setConfig('metadata:\n  validate_on_update: false\n');
    const updated = (await t.vault.call('update_note', {
      identifier: 'reading/dune.md',
      content_hash: note.content_hash,
      metadata: { rating: 100 },
    })) as { content_hash: string };
    expect(updated.content_hash).not.toBe(note.content_hash);
    // Vault-owned keys stay protected whatever the flags say.
    expect(
      await fails('update_note', {
        identifier: 'reading/dune.md',
        content_hash: updated.content_hash,
        metadata: { type: 'general' },
      }),
    ).toMatchObject({ rule: 'protected' });

    await setConfig('metadata:\n  validate_on_update: true\n');
    // The note was created unchecked: the required fields it lacks are reported with the broken rule.
    const body = await fails('update_note', {
      identifier: 'reading/dune.md',
      content_hash: updated.content_hash,
      metadata: { rating: 101 },
    });
    expect(body.fields).toEqual(['author', 'reading_type', 'status', 'rating']);
    expect(body.message).toMatch(/Field 'rating' must be at most 5 \(got 101\)/);
  });

  it('warns (not fails) about unknown fields by default, in the create answer', async () => {
    const answer = (await t.vault.call('create_note', { ...book, metadata: { ...book.metadata, mood: 'good' } })) as {
      warnings: string[];
    };
    expect(answer.warnings).toEqual([expect.stringMatching(/Unknown field 'mood'/)]);
  });
});

describe('vault config file', () => {
  it('vault.init writes the seed defaults', async () => {
    const text = await fs.readFile(path.join(t.root, '.flint-note', 'config.yml'), 'utf8');
    expect(text).toMatch(/require_confirmation: true/);
    expect(text).toMatch(/backup_path: \.flint-note\/backups/);
  });

  it('a bad file stops start-up naming the file and the key', async () => {
    await setConfig('deletion:\n  max_bulk_delete: lots\n');
    const kernel = await createKernel({ profile: 'flint', config: {}, logger: silentLogger() });
    const error = await kernel.openVault(t.root).then(
      () => undefined,
      (err: unknown) => err,
    );
    await kernel.close();
    expect(error).toBeInstanceOf(NotekernelError);
    expect((error as NotekernelError).toBody()).toMatchObject({
      error: 'config_invalid',
      file: '.flint-note/config.yml',
      key: 'deletion.max_bulk_delete',
    });
  });

  it('refuses a backup_path outside a hidden folder, where backups would be indexed as notes', async () => {
    await setConfig('deletion:\n  backup_path: backups\n');
    expect(await fails('create_note', book)).toMatchObject({ error: 'config_invalid', key: 'deletion.backup_path' });
  });
});
