/**
 * Exact-text writes (toolkit/files/note-text.ts) in a real obsidian-profile kernel: a stale hash
 * is refused and the file kept; a written note is indexed, linked and searchable at once, without
 * waiting for a watcher; Preferences.md keeps the lines that are not preferences.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SEARCH_INDEX } from '../../../kernel/tokens.js';
import { readNoteText, writeNoteText } from '../../../toolkit/files/note-text.js';
import { preferencesIn } from '../../../plugins/agent-preferences/preferences-file.js';
import { createTestKernel, type TestKernel } from '../../support/temp.js';

const HASHED = { search: { backend: 'hybrid-search', options: { embedder: 'hashed', embedThreads: 0 } } };
let t: TestKernel | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('exact-text writes', () => {
  it('refuse a stale hash and keep the file as another writer left it', async () => {
    t = await createTestKernel({ profile: 'obsidian', config: HASHED });
    const files = t.vault.notes.store.files!;
    await writeNoteText(t.vault.notes, files, 'A Folder/Note.md', 'first\n', null);
    const read = await readNoteText(files, 'A Folder/Note.md');
    fs.writeFileSync(path.join(t.root, 'A Folder/Note.md'), 'edited in Obsidian\n');
    await expect(writeNoteText(t.vault.notes, files, 'A Folder/Note.md', 'ours\n', read!.hash)).rejects.toMatchObject({
      code: 'content_hash_mismatch',
    });
    expect(fs.readFileSync(path.join(t.root, 'A Folder/Note.md'), 'utf8')).toBe('edited in Obsidian\n');
    await expect(writeNoteText(t.vault.notes, files, 'A Folder/Note.md', 'again\n', null)).rejects.toMatchObject({
      code: 'conflict',
    });
  });

  it('index, list and search a written note at once', async () => {
    t = await createTestKernel({ profile: 'obsidian', config: HASHED });
    const files = t.vault.notes.store.files!;
    await writeNoteText(
      t.vault.notes,
      files,
      'Deep/Er Folder/Fresh.md',
      '---\nstatus: new\n---\n\nquintessentially zorbulous\n',
      null,
    );
    const listed = await t.vault.notes.list();
    expect(listed.map((n) => n.id)).toContain('Deep/Er Folder/Fresh.md');
    expect(listed.find((n) => n.id === 'Deep/Er Folder/Fresh.md')?.metadata).toEqual({ status: 'new' });
    const page = await t.vault.resolve(SEARCH_INDEX).search({ text: 'zorbulous', limit: 5, mode: 'keyword' });
    expect(page.hits.map((h) => h.id)).toEqual(['Deep/Er Folder/Fresh.md']);
  });
});

describe('Preferences.md', () => {
  it('counts bullets only, from 1, whatever the bullet mark', () => {
    expect(preferencesIn('# Preferences\n\nSome text.\n- one\n* two\r\n  + three\n-not a bullet\n')).toEqual([
      { line_number: 1, preference: 'one' },
      { line_number: 2, preference: 'two' },
      { line_number: 3, preference: 'three' },
    ]);
  });
});
