/**
 * delete_note and bulk_delete_notes end to end over stdio: confirmation as the vault config
 * says, backups under .flint-note/backups, the incoming-links warning, limits and bad input.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFlint, type FlintSession } from '../support/flint-session.js';

let v: FlintSession;
beforeAll(async () => {
  v = await startFlint('nk-e2e-delete-');
  await v.ok('create_note', {
    notes: [
      { title: 'Target', content: 'Linked to.' },
      { title: 'Source', content: 'Points at [[Target]].' },
      { title: 'Loner', content: 'Nobody links here.' },
      ...[1, 2, 3, 4].map((i) => ({
        type: 'projects',
        title: `Draft ${i}`,
        content: i % 2 ? 'obsolete plan' : 'keep this',
        metadata: { status: 'planning', tags: i < 3 ? ['draft'] : ['final'] },
      })),
    ],
  });
});
afterAll(async () => {
  await v?.close();
});

interface Deleted {
  success: boolean;
  message: string;
  result: { id: string; deleted: boolean; backup_path?: string; warnings?: string[]; incoming_links?: string[] };
}

describe('delete_note', () => {
  it('requires confirm by default, and keeps the note', async () => {
    const body = await v.fail('delete_note', { identifier: 'general/loner.md' });
    expect(body).toMatchObject({ error: 'validation_failed', field: 'confirm', identifier: 'general/loner.md' });
    expect(body.message).toBe("Deleting note 'general/loner.md' requires confirmation. Set confirm=true to proceed.");
    expect(await v.read('general/loner.md')).toContain('Nobody links here.');
  });

  it('deletes with confirm, keeping a byte-identical backup under .flint-note/backups', async () => {
    const original = await v.read('general/loner.md');
    const answer = await v.ok<Deleted>('delete_note', { identifier: 'general/loner.md', confirm: true });
    expect(answer).toMatchObject({
      success: true,
      message: "Note 'general/loner.md' deleted successfully",
      result: { id: 'general/loner.md', deleted: true },
    });
    const backup = answer.result.backup_path as string;
    expect(backup.startsWith(path.join(v.root, '.flint-note', 'backups') + path.sep)).toBe(true);
    expect(await fs.readFile(path.join(backup, 'general', 'loner.md'), 'utf8')).toBe(original);
    expect(JSON.parse(await fs.readFile(path.join(backup, '_manifest.json'), 'utf8'))).toMatchObject({
      files: ['general/loner.md'],
      id: 'general/loner.md',
    });
    await expect(fs.access(path.join(v.root, 'general', 'loner.md'))).rejects.toThrow();
    expect(await v.fail('get_note', { identifier: 'general/loner.md' })).toMatchObject({ error: 'not_found' });
  });

  it('warns about incoming links and asks for confirmation because of them even when the config does not', async () => {
    await v.setConfig('deletion:\n  require_confirmation: false\n  create_backups: false\n');
    const body = await v.fail('delete_note', { identifier: 'general/target.md' });
    expect(body).toMatchObject({ field: 'confirm', incoming_links: ['general/source.md'] });
    const answer = await v.ok<Deleted>('delete_note', { identifier: 'general/target.md', confirm: true });
    expect(answer.result).toMatchObject({
      incoming_links: ['general/source.md'],
      warnings: [expect.stringMatching(/incoming links from 1 note\(s\) that will become broken: general\/source.md/)],
    });
    expect(answer.result.backup_path).toBeUndefined();
    // No links, no confirmation required under this config.
    expect(await v.ok<Deleted>('delete_note', { identifier: 'general/source.md' })).toMatchObject({ success: true });
    await fs.rm(path.join(v.root, '.flint-note', 'config.yml'));
  });

  it('refuses a missing note, a stale content_hash and a path outside the vault', async () => {
    expect(await v.fail('delete_note', { identifier: 'general/ghost.md', confirm: true })).toMatchObject({
      error: 'not_found',
    });
    const body = await v.fail('delete_note', {
      identifier: 'projects/draft-4.md',
      confirm: true,
      content_hash: 'sha256:old',
    });
    expect(body).toMatchObject({ error: 'content_hash_mismatch', provided_hash: 'sha256:old' });
    expect(await v.read('projects/draft-4.md')).toContain('keep this');
    expect(await v.fail('delete_note', { identifier: '../../etc/passwd', confirm: true })).toMatchObject({
      error: 'path_outside_vault',
    });
  });

  it('is annotated as destructive, like bulk_delete_notes', async () => {
    const { tools } = await v.session.client.listTools();
    // Absent hints take MCP's defaults: readOnlyHint false, destructiveHint true.
    for (const name of ['delete_note', 'bulk_delete_notes']) {
      const annotations = tools.find((t) => t.name === name)?.annotations;
      expect([annotations?.readOnlyHint ?? false, annotations?.destructiveHint ?? true], name).toEqual([false, true]);
    }
  });
});

describe('bulk_delete_notes', () => {
  it('refuses to run without a criterion, and refuses a bad pattern', async () => {
    expect(await v.fail('bulk_delete_notes', { confirm: true })).toMatchObject({ error: 'validation_failed' });
    expect(await v.fail('bulk_delete_notes', { pattern: '([', confirm: true })).toMatchObject({
      error: 'validation_failed',
      field: 'pattern',
    });
  });

  it('lists what it would delete until confirmed', async () => {
    const body = await v.fail('bulk_delete_notes', { type: 'projects', tags: ['draft'] });
    expect(body).toMatchObject({ field: 'confirm', would_delete: ['projects/draft-1.md', 'projects/draft-2.md'] });
    expect(await v.read('projects/draft-1.md')).toContain('obsolete');
  });

  it('refuses more matches than max_bulk_delete', async () => {
    await v.setConfig('deletion:\n  max_bulk_delete: 3\n');
    expect(await v.fail('bulk_delete_notes', { type: 'projects', confirm: true })).toMatchObject({
      error: 'validation_failed',
      matched: 4,
      max_bulk_delete: 3,
    });
    await fs.rm(path.join(v.root, '.flint-note', 'config.yml'));
  });

  it('deletes every note matching all criteria, backing each up', async () => {
    const answer = await v.ok<{
      success: boolean;
      message: string;
      results: Deleted['result'][];
      summary: Record<string, number>;
    }>('bulk_delete_notes', {
      type: 'projects',
      pattern: 'OBSOLETE',
      confirm: true,
    });
    expect(answer).toMatchObject({
      success: true,
      message: 'Bulk delete completed: 2 deleted, 0 failed',
      summary: { total: 2, successful: 2, failed: 0 },
    });
    expect(answer.results.map((r) => r.id)).toEqual(['projects/draft-1.md', 'projects/draft-3.md']);
    for (const r of answer.results)
      expect(await fs.readFile(path.join(r.backup_path as string, r.id), 'utf8')).toContain('obsolete plan');
    expect(
      (await v.ok<Array<{ id: string }>>('list_notes_by_type', { type: 'projects' })).map((n) => n.id).sort(),
    ).toEqual(['projects/draft-2.md', 'projects/draft-4.md']);
  });

  it('matches nothing quietly', async () => {
    expect(await v.ok('bulk_delete_notes', { tags: ['no-such-tag'], confirm: true })).toMatchObject({
      summary: { total: 0 },
    });
  });
});
