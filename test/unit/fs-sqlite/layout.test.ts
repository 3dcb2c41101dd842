import { describe, expect, it } from 'vitest';
import {
  assertTypeName,
  isNoteFileName,
  listNoteFiles,
  locate,
  NOTE_SLUG,
  type Layout,
} from '../../../backends/fs-sqlite/layout.js';
import { slugify as slugifyWith } from '../../../toolkit/slugify.js';
import { useVaults } from './helpers.js';

const typed: Layout = { kind: 'typed', metaDir: '.notekernel', defaultType: 'general' };
const flat: Layout = { kind: 'flat', metaDir: '.notekernel', defaultType: 'general' };

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    return (err as { code?: string }).code;
  }
  return undefined;
}

/** A lone UTF-16 surrogate: a string that cannot be encoded as UTF-8 faithfully. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const slugify = (title: string) => slugifyWith(title, NOTE_SLUG);

describe('slugify (flint filenames)', () => {
  it.each([
    ['Hello, World!', 'hello-world'],
    ['Ünïcødé Straße', 'ünïcødé-straße'],
    ['日本語 の ノート', '日本語-の-ノート'],
    ['Привет, мир', 'привет-мир'],
    ['Ελληνικά 2024', 'ελληνικά-2024'],
    ['  spaced   out  ', 'spaced-out'],
    ['a -- b', 'a-b'],
    ['under_score kept', 'under_score-kept'],
    ['"Quotes" & (parens) / slashes: #1?', 'quotes-parens-slashes-1'],
    ['../../etc/passwd', 'etcpasswd'],
    ['dots.and.more', 'dotsandmore'],
    ['tabs\tand\nnewlines', 'tabs-and-newlines'],
  ])('%j → %j', (title, slug) => {
    expect(slugify(title)).toBe(slug);
  });

  it('composes decomposed accents (NFC) so one title has one filename', () => {
    expect(slugify('Cafe\u0301')).toBe('café');
    expect(slugify('Cafe\u0301')).toBe(slugify('Café'));
  });

  it.each([[''], ['   '], ['!!!'], ['🎉🎉'], ['---'], ['.']])('%j → untitled', (title) => {
    expect(slugify(title)).toBe('untitled');
  });

  it('caps the slug at 100 characters without a trailing dash', () => {
    expect(slugify('a'.repeat(150))).toBe('a'.repeat(100));
    const words = slugify('ab '.repeat(60));
    expect(words.length).toBeLessThanOrEqual(100);
    expect(words.endsWith('-')).toBe(false);
    expect(words.startsWith('ab-ab')).toBe(true);
  });

  it('never yields a hidden name or a path separator', () => {
    for (const title of ['.hidden', '/abs', 'a/b', 'a\\b', '..', 'x\u0000y']) {
      const slug = slugify(title);
      expect(slug.startsWith('.'), title).toBe(false);
      expect(slug, title).not.toMatch(/[/\\\0]/);
    }
  });

  // The cap counts code points: a cut in UTF-16 units would split a letter outside the BMP
  // (𝒳, CJK extension B) and leave a lone surrogate in the filename.
  it('never splits a character outside the BMP at the length cap', () => {
    const slug = slugify('a'.repeat(99) + '𝒳𝒳');
    expect(slug).not.toMatch(LONE_SURROGATE);
  });
});

describe('locate (typed layout)', () => {
  it.each([['general/x.md'], ['general/x'], ['x'], ['x.md'], ['  general/x.md  '], ['./general//x.md']])(
    '%j names general/x.md',
    (identifier) => {
      expect(locate(typed, identifier)).toEqual({ id: 'general/x.md', type: 'general', relPath: 'general/x.md' });
    },
  );

  it('keeps the type folder and the case of the name', () => {
    expect(locate(typed, 'projects/Plan.MD')).toEqual({
      id: 'projects/Plan.MD',
      type: 'projects',
      relPath: 'projects/Plan.MD',
    });
    expect(locate({ ...typed, defaultType: 'inbox' }, 'y')).toEqual({
      id: 'inbox/y.md',
      type: 'inbox',
      relPath: 'inbox/y.md',
    });
  });

  it.each([
    ['../x'],
    ['../../x.md'],
    ['general/../x'],
    ['/etc/passwd'],
    ['C:/x.md'],
    ['a\\b'],
    ['a\u0000b'],
    [''],
    ['.'],
  ])('%j is refused as outside the vault', (identifier) => {
    expect(codeOf(() => locate(typed, identifier))).toBe('path_outside_vault');
  });

  it.each([
    ['general/_description.md'],
    ['_description.md'],
    ['general/.hidden.md'],
    ['a/b/c.md'],
    ['general/sub/x'],
    ['.notekernel/x.md'],
    ['node_modules/x.md'],
    ['bad type/x.md'],
  ])('%j is refused as not a note', (identifier) => {
    expect(codeOf(() => locate(typed, identifier))).toBe('validation_failed');
  });
});

describe('locate (flat layout)', () => {
  it('takes any depth, the first folder as the type', () => {
    expect(locate(flat, 'a/b/c.md')).toEqual({ id: 'a/b/c.md', type: 'a', relPath: 'a/b/c.md' });
    expect(locate(flat, 'x')).toEqual({ id: 'x.md', type: 'general', relPath: 'x.md' });
    expect(codeOf(() => locate(flat, '../x'))).toBe('path_outside_vault');
  });
});

describe('assertTypeName', () => {
  it.each([['general'], ['my-type_2'], ['заметки'], ['日本'], ['2024'], ['a'.repeat(64)]])('accepts %j', (name) => {
    expect(assertTypeName(typed, name)).toBe(name);
  });

  it.each([
    ['.flint-note'],
    ['.notekernel'],
    ['node_modules'],
    ['..'],
    ['../x'],
    ['a/b'],
    ['a\\b'],
    ['a\u0000b'],
    [''],
    ['-lead'],
    ['_lead'],
    ['with space'],
    ['a.b'],
    ['a'.repeat(65)],
    ['general\n'],
  ])('refuses %j', (name) => {
    let thrown: unknown;
    try {
      assertTypeName(typed, name);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toMatchObject({ code: 'validation_failed', details: { field: 'type', value: name } });
    expect((thrown as Error).message).not.toContain('\0');
  });

  it('refuses the configured metadata folder too', () => {
    expect(codeOf(() => assertTypeName({ ...typed, metaDir: '.flint-note' }, '.flint-note'))).toBe('validation_failed');
  });
});

describe('note files', () => {
  it.each([
    ['a.md', true],
    ['A.MD', true],
    ['ünï.md', true],
    ['_description.md', false],
    ['.hidden.md', false],
    ['.nk-tmp-123-abc', false],
    ['.nk-tmp-123.md', false],
    ['notes.txt', false],
    ['md', false],
  ])('isNoteFileName(%j) is %s', (name, expected) => {
    expect(isNoteFileName(name)).toBe(expected);
  });

  const { vaultDir } = useVaults();
  const files = {
    'general/a.md': 'a',
    'general/_description.md': 'd',
    'general/.nk-tmp-1-abc': 't',
    'general/notes.txt': 'n',
    'general/sub/deep.md': 'deep',
    'projects/b.md': 'b',
    '.notekernel/x.md': 'meta',
    'node_modules/pkg/readme.md': 'dep',
    '.git/c.md': 'git',
    'bad name/x.md': 'x',
    'root.md': 'r',
  };

  it('typed: one folder level, type-shaped folders only, no type or temp files', async () => {
    const root = await vaultDir(files);
    const found = await listNoteFiles(typed, root);
    expect(found.map((f) => f.id).sort()).toEqual(['general/a.md', 'projects/b.md']);
    expect(found.find((f) => f.id === 'projects/b.md')).toEqual({
      id: 'projects/b.md',
      type: 'projects',
      relPath: 'projects/b.md',
    });
  });

  it('flat: every .md at any depth except hidden, metadata and dependency folders', async () => {
    const root = await vaultDir(files);
    const found = await listNoteFiles(flat, root);
    expect(found.map((f) => f.id).sort()).toEqual([
      'bad name/x.md',
      'general/a.md',
      'general/sub/deep.md',
      'projects/b.md',
      'root.md',
    ]);
    expect(found.find((f) => f.id === 'general/sub/deep.md')?.type).toBe('general');
    expect(found.find((f) => f.id === 'root.md')?.type).toBe('general');
  });

  it('flat with underscoreNotes (Obsidian): `_` files are notes too; typed keeps them for its types', async () => {
    const root = await vaultDir(files);
    const found = await listNoteFiles({ ...flat, underscoreNotes: true }, root);
    expect(found.map((f) => f.id).sort()).toEqual([
      'bad name/x.md',
      'general/_description.md',
      'general/a.md',
      'general/sub/deep.md',
      'projects/b.md',
      'root.md',
    ]);
    expect((await listNoteFiles({ ...typed, underscoreNotes: true }, root)).map((f) => f.id).sort()).toEqual([
      'general/a.md',
      'projects/b.md',
    ]);
  });
});
