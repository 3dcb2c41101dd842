/** note-types internals: safe type names, in-place section edits, migration rollback (on a real flint vault). */
import { describe, expect, it } from 'vitest';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ConflictError, toNotekernelError } from '../../../kernel/errors.js';
import type { Note } from '../../../kernel/note.js';
import type { NoteService } from '../../../kernel/notes.js';
import { parseDescription, replaceSection } from '../../../plugins/note-types/description.js';
import { migrateNotes } from '../../../plugins/note-types/tools/migrate-notes.js';
import { assertTypeName, typeNameProblem } from '../../../toolkit/type-name.js';
import { useFlint } from '../links/helpers.js';

const flint = useFlint();

describe('type names', () => {
  it.each([
    ['', 'empty'],
    ['../outside', 'traversal'],
    ['a/b', 'traversal'],
    ['a\\b', 'traversal'],
    ['a\0b', 'traversal'],
    ['..', 'traversal'],
    ['.flint-note', 'reserved'],
    ['.hidden', 'reserved'],
    ['_private', 'characters'],
    ['with space', 'characters'],
    ['semi;colon', 'characters'],
    ['x'.repeat(65), 'characters'],
    ['CON', 'reserved'],
    ['lpt1', 'reserved'],
    ['node_modules', 'reserved'],
  ])('refuses %j (%s)', (name, rule) => {
    expect(typeNameProblem(name)?.rule).toBe(rule);
    const body = toNotekernelError(captured(() => assertTypeName(name))).toBody();
    expect(body).toMatchObject({ error: 'validation_failed', field: 'type_name', rule });
    expect(body.message).toContain('Invalid note type name');
  });

  it.each(['reading', 'book-reviews', 'meeting_notes', '2024', 'Ünïcode', 'x'.repeat(64)])('accepts %j', (name) => {
    expect(typeNameProblem(name)).toBeUndefined();
  });
});

function captured(fn: () => unknown): unknown {
  try {
    fn();
  } catch (err) {
    return err;
  }
  throw new Error('did not throw');
}

describe('replaceSection', () => {
  const text =
    '# Reading\n\n## Purpose\nOld purpose\n\n## Agent Instructions\n- one\n\n## My Notes\nkeep me\n\n## Metadata Schema\nExpected:\n- a: A (optional, string)\n';

  it('replaces one section and keeps every other line', () => {
    const out = replaceSection(text, 'Agent Instructions', ['- two', '- three']);
    expect(out).toBe(
      '# Reading\n\n## Purpose\nOld purpose\n\n## Agent Instructions\n- two\n- three\n\n## My Notes\nkeep me\n\n## Metadata Schema\nExpected:\n- a: A (optional, string)\n',
    );
    expect(parseDescription(out, 'reading').agentInstructions).toEqual(['two', 'three']);
  });

  it('replaces the last section up to the end of the file', () => {
    const out = replaceSection(text, 'Metadata Schema', ['- b: B (required, number)']);
    expect(out.endsWith('## Metadata Schema\n- b: B (required, number)\n')).toBe(true);
    expect(out).toContain('## My Notes\nkeep me');
  });

  it('appends a missing section', () => {
    const out = replaceSection('# T\n\n## Purpose\nP\n', 'Agent Instructions', ['- x']);
    expect(out).toBe('# T\n\n## Purpose\nP\n\n## Agent Instructions\n- x\n');
  });
});

describe('migrateNotes', () => {
  const note = (id: string): Note => ({
    id,
    title: id,
    content: '',
    tags: [],
    metadata: {},
    created: '',
    updated: '',
    type: id.split('/')[0] as string,
    contentHash: `hash:${id}`,
    path: `/v/${id}`,
    filename: id.split('/')[1] as string,
    size: 0,
  });

  function fakeNotes(existing: string[]) {
    const moves: Array<[string, string]> = [];
    const service = {
      async get(id: string) {
        return existing.includes(id) ? note(id) : undefined;
      },
      async move(id: string, type: string) {
        moves.push([id, type]);
        return { ...note(`${type}/${id.split('/')[1]}`) };
      },
    };
    return { service: service as unknown as NoteService, moves };
  }

  it('moves nothing when a filename already exists in the target', async () => {
    const { service, moves } = fakeNotes(['projects/b.md']);
    const error = await migrateNotes(service, [note('ideas/a.md'), note('ideas/b.md')], 'projects').catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ConflictError);
    expect((error as ConflictError).details).toMatchObject({ conflicts: ['projects/b.md'] });
    expect(moves).toEqual([]);
  });

  it('moves the already-moved notes back, byte for byte, when one move fails', async () => {
    const { vault, root } = await flint();
    for (const type of ['ideas', 'outbox'])
      await vault.call('create_note_type', { type_name: type, description: type });
    for (const name of ['a', 'b', 'c'])
      await vault.call('create_note', { type: 'ideas', title: name, content: `${name} body\n` });
    const read = async (id: string) => (await vault.notes.get(id)) as Note;
    const list = [
      await read('ideas/a.md'),
      await read('ideas/b.md'),
      { ...(await read('ideas/c.md')), contentHash: 'sha256:stale' },
    ];
    const files = await Promise.all(
      ['a', 'b', 'c'].map((n) => fs.readFile(path.join(root, 'ideas', `${n}.md`), 'utf8')),
    );
    const error = await migrateNotes(vault.notes, list, 'outbox').catch((e: unknown) => e);
    expect(toNotekernelError(error).toBody()).toMatchObject({
      error: 'conflict',
      failed: 'ideas/c.md',
      cause: { error: 'content_hash_mismatch' },
    });
    expect(
      await Promise.all(['a', 'b', 'c'].map((n) => fs.readFile(path.join(root, 'ideas', `${n}.md`), 'utf8'))),
    ).toEqual(files);
    expect(await fs.readdir(path.join(root, 'outbox'))).not.toContain('a.md');
  });
});
