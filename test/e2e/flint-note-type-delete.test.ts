/**
 * delete_note_type end to end over stdio: the error, migrate and delete actions, confirmation,
 * limits and config switches, backups, and what is refused.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFlint, type FlintSession } from '../support/flint-session.js';

let v: FlintSession;
beforeAll(async () => {
  v = await startFlint('nk-e2e-type-delete-');
});
afterAll(async () => {
  await v?.close();
});

describe('delete_note_type', () => {
  beforeAll(async () => {
    await v.ok('create_note_type', { type_name: 'ideas', description: 'Loose ideas' });
    await v.ok('create_note', {
      notes: [1, 2, 3].map((i) => ({ type: 'ideas', title: `Idea ${i}`, content: `Idea number ${i}` })),
    });
    await v.ok('create_note_type', { type_name: 'archive', description: 'Old things' });
  });

  it("action 'error' refuses while the type holds notes", async () => {
    const body = await v.fail('delete_note_type', { type_name: 'ideas', confirm: true });
    expect(body).toMatchObject({
      error: 'conflict',
      note_count: 3,
      notes: ['ideas/idea-1.md', 'ideas/idea-2.md', 'ideas/idea-3.md'].sort(),
    });
  });

  it('asks for confirmation, naming the notes affected', async () => {
    const body = await v.fail('delete_note_type', { type_name: 'ideas', action: 'migrate', target_type: 'archive' });
    expect(body).toMatchObject({ error: 'validation_failed', field: 'confirm', note_count: 3 });
  });

  it("'migrate' needs an existing, different target type", async () => {
    expect(await v.fail('delete_note_type', { type_name: 'ideas', action: 'migrate', confirm: true })).toMatchObject({
      field: 'target_type',
    });
    expect(
      await v.fail('delete_note_type', {
        type_name: 'ideas',
        action: 'migrate',
        target_type: 'nowhere',
        confirm: true,
      }),
    ).toMatchObject({ error: 'not_found' });
    expect(
      await v.fail('delete_note_type', { type_name: 'ideas', action: 'migrate', target_type: 'ideas', confirm: true }),
    ).toMatchObject({ field: 'target_type' });
  });

  it("'delete' refuses more notes than max_bulk_delete", async () => {
    await v.setConfig('deletion:\n  max_bulk_delete: 2\n');
    expect(await v.fail('delete_note_type', { type_name: 'ideas', action: 'delete', confirm: true })).toMatchObject({
      error: 'validation_failed',
      note_count: 3,
      max_bulk_delete: 2,
    });
    await v.setConfig('deletion:\n  allow_note_type_deletion: false\n');
    expect(await v.fail('delete_note_type', { type_name: 'ideas', action: 'delete', confirm: true })).toMatchObject({
      setting: 'deletion.allow_note_type_deletion',
    });
    await fs.rm(path.join(v.root, '.flint-note', 'config.yml'));
  });

  it("'migrate' moves every note, backs them up, and removes the type", async () => {
    const answer = await v.ok<{ result: Record<string, unknown> }>('delete_note_type', {
      type_name: 'ideas',
      action: 'migrate',
      target_type: 'archive',
      confirm: true,
    });
    expect(answer).toMatchObject({ success: true, message: "Note type 'ideas' deleted successfully" });
    expect(answer.result).toMatchObject({
      name: 'ideas',
      deleted: true,
      action: 'migrate',
      notes_affected: 3,
      migration_target: 'archive',
    });
    await expect(fs.access(path.join(v.root, 'ideas'))).rejects.toThrow();
    const moved = await v.ok<{ type: string; metadata: { type: string } }>('get_note', {
      identifier: 'archive/idea-2.md',
    });
    expect(moved).toMatchObject({ type: 'archive', metadata: { type: 'archive' } });
    const backup = String(answer.result.backup_path);
    expect(backup.startsWith(path.join(v.root, '.flint-note', 'backups'))).toBe(true);
    expect(await fs.readFile(path.join(backup, 'ideas', 'idea-2.md'), 'utf8')).toContain('Idea number 2');
    expect(JSON.parse(await fs.readFile(path.join(backup, '_manifest.json'), 'utf8'))).toMatchObject({
      files: expect.arrayContaining(['ideas/_description.md', 'ideas/idea-1.md']),
    });
    expect((await v.ok<Array<{ name: string }>>('list_note_types')).map((t) => t.name)).not.toContain('ideas');
  });

  it("'delete' deletes the notes (backed up) and the type", async () => {
    const answer = await v.ok<{ result: Record<string, unknown> }>('delete_note_type', {
      type_name: 'archive',
      action: 'delete',
      confirm: true,
    });
    expect(answer.result).toMatchObject({ action: 'delete', notes_affected: 3 });
    expect(await fs.readFile(path.join(String(answer.result.backup_path), 'archive', 'idea-1.md'), 'utf8')).toContain(
      'Idea number 1',
    );
    expect(await v.fail('get_note', { identifier: 'archive/idea-1.md' })).toMatchObject({ error: 'not_found' });
    await expect(fs.access(path.join(v.root, 'archive'))).rejects.toThrow();
  });

  it('refuses the default type and unknown types', async () => {
    expect(await v.fail('delete_note_type', { type_name: 'general', confirm: true })).toMatchObject({
      error: 'validation_failed',
      value: 'general',
    });
    expect(await v.fail('delete_note_type', { type_name: 'archive', confirm: true })).toMatchObject({
      error: 'not_found',
    });
  });

  it('is annotated as destructive', async () => {
    const { tools } = await v.session.client.listTools();
    // Absent hints take MCP's defaults: readOnlyHint false, destructiveHint true.
    const annotations = tools.find((t) => t.name === 'delete_note_type')?.annotations;
    expect([annotations?.readOnlyHint ?? false, annotations?.destructiveHint ?? true]).toEqual([false, true]);
  });
});
