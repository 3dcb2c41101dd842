/**
 * The single write pipeline (issue 29): `update_note` reads its note once — inside the store's
 * compare-and-swap — and checks the type's schema once, warnings included; no journal entry is
 * written for one note.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SCHEMA } from '../../../plugins/schema/service.js';
import { createTestKernel, type TestKernel } from '../../support/temp.js';

let t: TestKernel | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await t?.close();
  t = undefined;
});

describe('update_note', () => {
  it('reads the note once and checks the schema once per call', async () => {
    t = await createTestKernel();
    const { vault, root } = t;
    const created = (await vault.call('create_note', {
      type: 'general',
      title: 'Counted',
      content: 'First body.\n',
    })) as { id: string };
    const { content_hash } = (await vault.call('get_note', { identifier: created.id })) as { content_hash: string };
    const notePath = path.join(root, created.id);
    const opened: string[] = [];
    const openSync = fs.openSync;
    vi.spyOn(fs, 'openSync').mockImplementation(((file: fs.PathLike, ...rest: unknown[]) => {
      opened.push(String(file));
      return (openSync as (...args: unknown[]) => number)(file, ...rest);
    }) as typeof fs.openSync);
    const check = vi.spyOn(vault.resolve(SCHEMA), 'check');
    const get = vi.spyOn(vault.notes.store, 'get');

    const answer = (await vault.call('update_note', {
      identifier: created.id,
      content: 'Second body.\n',
      metadata: { mood: 'calm' },
      content_hash,
    })) as { updated: boolean; warnings?: string[] };

    expect(answer.updated).toBe(true);
    expect(opened.filter((file) => file === notePath)).toHaveLength(1);
    expect(get).not.toHaveBeenCalled();
    expect(check).toHaveBeenCalledTimes(1);
    // The one check still reports what the schema does not define.
    expect(answer.warnings?.join(' ')).toMatch(/mood/);
    expect(
      fs.existsSync(path.join(root, '.flint-note', 'journal'))
        ? fs.readdirSync(path.join(root, '.flint-note', 'journal'))
        : [],
    ).toEqual([]);
  });
});

describe('NoteService.update on a flat vault', () => {
  it('refuses a file the store does not read as a note, as a read of it would, and leaves it alone', async () => {
    t = await createTestKernel({ profile: 'zettelkasten' });
    const draft = path.join(t.root, '_draft.md');
    fs.writeFileSync(draft, 'a scratch file, not a card\n');
    const hash = `sha256:${(await import('node:crypto')).createHash('sha256').update('a scratch file, not a card\n').digest('hex')}`;
    expect(await t.vault.notes.get('_draft.md')).toBeUndefined();
    await expect(t.vault.notes.update('_draft.md', { content: 'overwritten' }, hash)).rejects.toMatchObject({
      code: 'not_found',
    });
    expect(fs.readFileSync(draft, 'utf8')).toBe('a scratch file, not a card\n');
  });
});
