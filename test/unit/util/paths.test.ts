import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isInside, normaliseRelative, resolveInside, toRelative } from '../../../toolkit/files/paths.js';
import { removeDir, tempDir } from '../../support/temp.js';

function thrownBy(
  fn: () => unknown,
): { code?: string; details?: Record<string, unknown>; message?: string } | undefined {
  try {
    fn();
  } catch (err) {
    return err as { code?: string };
  }
  return undefined;
}

describe('normaliseRelative', () => {
  it.each([
    ['a', 'a'],
    ['a/b/c.md', 'a/b/c.md'],
    ['./a//b/', 'a/b'],
    ['a/./b/.', 'a/b'],
    ['ünï/日本.md', 'ünï/日本.md'],
    ['..notes', '..notes'],
    ['a..b/..c', 'a..b/..c'],
  ])('%j → %j', (input, expected) => {
    expect(normaliseRelative(input)).toBe(expected);
  });

  it.each([
    ['', /empty/],
    ['.', /vault root/],
    ['./', /vault root/],
    ['//', /absolute/],
    ['..', /".."/],
    ['../x', /".."/],
    ['a/../b', /".."/],
    ['a/..', /".."/],
    ['/etc/passwd', /absolute/],
    ['C:/Windows', /absolute/],
    ['c:relative', /absolute/],
    ['a\\b', /backslash/],
    ['..\\x', /backslash/],
    ['a\u0000b', /NUL/],
  ])('refuses %j (path_outside_vault, reason %s)', (input, reason) => {
    const err = thrownBy(() => normaliseRelative(input));
    expect(err?.code).toBe('path_outside_vault');
    expect(err?.details?.reason).toMatch(reason);
  });

  it('prints a NUL byte visibly in the error, never raw', () => {
    const err = thrownBy(() => normaliseRelative('x\u0000y'));
    expect(err?.message).toContain('x\\0y');
    expect(err?.message).not.toContain('\u0000');
    expect(err?.details?.path).toBe('x\\0y');
  });

  it.each([
    'general/con.md',
    'aux',
    'NUL.md',
    'a/com1.txt',
    'lpt9',
    'COM¹.md',
    'conin$',
    'notes./a.md',
    'a/b ',
    '...',
    'x.',
  ])('refuses %j: not portable to Windows (validation_failed)', (input) => {
    const err = thrownBy(() => normaliseRelative(input));
    expect(err?.code).toBe('validation_failed');
    expect(err?.message).toMatch(/reserved on Windows|dot or a space/);
  });

  it.each(['console.md', 'auxiliary/x.md', 'com10.md', 'nul-and-void.md'])(
    'keeps %j (only the exact device names are reserved)',
    (input) => {
      expect(normaliseRelative(input)).toBe(input);
    },
  );

  it('refuses a non-string', () => {
    expect(thrownBy(() => normaliseRelative(undefined as unknown as string))?.code).toBe('path_outside_vault');
  });
});

describe('resolveInside', () => {
  let root: string;
  let outside: string;
  beforeEach(async () => {
    root = await tempDir('nk-root-');
    outside = await tempDir('nk-outside-');
    await fs.mkdir(path.join(root, 'inner'), { recursive: true });
    await fs.writeFile(path.join(outside, 'secret.txt'), 'secret');
  });
  afterEach(async () => {
    await removeDir(root);
    await removeDir(outside);
  });

  it('joins a clean relative path under the root, existing or not', () => {
    expect(resolveInside(root, 'inner/x.md')).toBe(path.join(root, 'inner', 'x.md'));
    expect(resolveInside(root, './not/yet/there.md')).toBe(path.join(root, 'not', 'yet', 'there.md'));
  });

  it.each([['../x'], ['/etc/passwd'], ['a\u0000b'], ['a\\b'], ['inner/../../x'], ['']])('refuses %j', (rel) => {
    expect(thrownBy(() => resolveInside(root, rel))?.code).toBe('path_outside_vault');
  });

  it('refuses a path through a symlinked folder that leads outside, at any depth below it', async () => {
    await fs.symlink(outside, path.join(root, 'escape'));
    await fs.symlink(path.join(outside, 'secret.txt'), path.join(root, 'inner', 'secret-link.md'));
    for (const rel of ['escape', 'escape/secret.txt', 'escape/new/deeper/file.md', 'inner/secret-link.md']) {
      const err = thrownBy(() => resolveInside(root, rel));
      expect(err?.code, rel).toBe('path_outside_vault');
      expect(err?.details?.reason, rel).toMatch(/symlink/);
    }
  });

  it('refuses a symlink chain that ends outside', async () => {
    await fs.symlink(outside, path.join(root, 'hop2'));
    await fs.symlink(path.join(root, 'hop2'), path.join(root, 'inner', 'hop1'));
    expect(thrownBy(() => resolveInside(root, 'inner/hop1/secret.txt'))?.code).toBe('path_outside_vault');
  });

  it('accepts a symlink that stays inside, returning the unresolved path', async () => {
    await fs.symlink(path.join(root, 'inner'), path.join(root, 'alias'));
    await fs.symlink('inner', path.join(root, 'relative-alias'));
    expect(resolveInside(root, 'alias/x.md')).toBe(path.join(root, 'alias', 'x.md'));
    expect(resolveInside(root, 'relative-alias/x.md')).toBe(path.join(root, 'relative-alias', 'x.md'));
  });

  it('a sibling folder sharing the root as a name prefix is outside', async () => {
    const sibling = `${root}-sibling`;
    await fs.mkdir(sibling);
    try {
      await fs.symlink(sibling, path.join(root, 'to-sibling'));
      expect(thrownBy(() => resolveInside(root, 'to-sibling/x'))?.code).toBe('path_outside_vault');
      expect(isInside(root, sibling)).toBe(false);
    } finally {
      await removeDir(sibling);
    }
  });

  // A dangling symlink cannot be realpath'd: taking its parent as the deepest existing ancestor
  // would let the link pass, and fs.writeFile through it would create a file outside.
  it('refuses a dangling symlink that points outside', async () => {
    await fs.symlink(path.join(outside, 'planted.txt'), path.join(root, 'dangling.txt'));
    expect(thrownBy(() => resolveInside(root, 'dangling.txt'))?.code).toBe('path_outside_vault');
  });
});

describe('isInside and toRelative', () => {
  it('isInside: the root itself and descendants only', () => {
    expect(isInside('/v', '/v')).toBe(true);
    expect(isInside('/v', '/v/a/b')).toBe(true);
    expect(isInside('/v', '/v-other/a')).toBe(false);
    expect(isInside('/v', '/')).toBe(false);
    expect(isInside('/v/a', '/v')).toBe(false);
  });

  // Only `..` itself or `../…` leaves the root: a child whose name merely begins with two dots is
  // inside, as normaliseRelative accepts it (a plain `startsWith('..')` would refuse it).
  it('a child named with a leading ".." is inside', () => {
    expect(isInside('/v', '/v/..notes')).toBe(true);
    expect(isInside('/v', '/v/...')).toBe(true);
  });

  it('toRelative gives the /-separated form', () => {
    expect(toRelative('/v', path.join('/v', 'a', 'b.md'))).toBe('a/b.md');
  });
});

describe('resolveInside and names that begin with two dots', () => {
  let root: string;
  beforeEach(async () => {
    root = await tempDir('nk-root-');
  });
  afterEach(async () => {
    await removeDir(root);
  });

  // The same rule seen from resolveInside (`...` itself is refused: Windows drops trailing dots).
  it('resolves `..notes` under the root', () => {
    expect(resolveInside(root, '..notes/x.md')).toBe(path.join(root, '..notes', 'x.md'));
  });
});
