/** The tags plugin through the flint profile: counts, the TAGS service, rename_tag, restarts. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TAGS } from '../../../plugins/tags/service.js';
import type { TagIndex } from '../../../plugins/tags/tag-index.js';
import { createTestKernel, tempDir } from '../../support/temp.js';
import { contentOf, useFlint } from '../links/helpers.js';

const flint = useFlint();

async function note(
  vault: Parameters<typeof contentOf>[0],
  title: string,
  content: string,
  tags: string[] = [],
): Promise<string> {
  return ((await vault.call('create_note', { type: 'general', title, content, metadata: { tags } })) as { id: string })
    .id;
}

describe('tags', () => {
  it('list_tags counts notes per tag across frontmatter and inline tags, case-insensitively', async () => {
    const { vault } = await flint();
    await note(vault, 'One', 'about #Work and #project/alpha, not `#code` nor #ff0000', ['work', 'reading']);
    await note(vault, 'Two', '#work #project/beta\n```\n#fenced\n```', []);
    await note(vault, 'Three', 'no tags here, issue #12', ['Reading']);
    const answer = (await vault.call('list_tags', {})) as {
      tags: Array<{ tag: string; count: number }>;
      total: number;
    };
    // One spelling per tag: the one most notes use, ties broken by code-unit order.
    expect(answer.tags).toEqual([
      { tag: 'Reading', count: 2 },
      { tag: 'Work', count: 2 },
      { tag: 'project/alpha', count: 1 },
      { tag: 'project/beta', count: 1 },
    ]);
    expect(answer.total).toBe(4);
    const prefixed = (await vault.call('list_tags', { prefix: '#project/' })) as { tags: Array<{ tag: string }> };
    expect(prefixed.tags.map((t) => t.tag)).toEqual(['project/alpha', 'project/beta']);
  });

  it('the TAGS service answers all / any / none filters, nested by default', async () => {
    const { vault } = await flint();
    const a = await note(vault, 'A', '#project/alpha #urgent');
    const b = await note(vault, 'B', '#project/beta', ['urgent']);
    const c = await note(vault, 'C', '#project');
    const tags = vault.resolve(TAGS);
    expect(await tags.notesWith({ any: ['project'] })).toEqual([a, b, c].sort());
    expect(await tags.notesWith({ any: ['project'], nested: false })).toEqual([c]);
    expect(await tags.notesWith({ all: ['project', 'urgent'] })).toEqual([a, b].sort());
    expect(await tags.notesWith({ all: ['urgent'], none: ['project/beta'] })).toEqual([a]);
    expect(await tags.tagsOf(b)).toEqual(['urgent', 'project/beta']);
  });

  it('rename_tag: dry run first, then frontmatter, inline and nested tags, merging duplicates', async () => {
    const { vault } = await flint();
    const a = await note(vault, 'A', 'Working on #proj and #proj/sub, not #project.', ['proj', 'other']);
    const b = await note(vault, 'B', 'only inline #Proj here');
    const c = await note(vault, 'C', 'merge', ['proj', 'area__work']);
    const dry = (await vault.call('rename_tag', { from: '#proj', to: 'area__work' })) as {
      dry_run: boolean;
      notes: Array<{
        id: string;
        frontmatter?: { before: string[]; after: string[] };
        inline: Array<{ before: string; after: string }>;
      }>;
      notes_affected: number;
    };
    expect(dry.dry_run).toBe(true);
    expect(dry.notes_affected).toBe(3);
    expect(dry.notes.find((n) => n.id === a)).toMatchObject({
      frontmatter: { before: ['proj', 'other'], after: ['area__work', 'other'] },
      inline: [
        { before: '#proj', after: '#area__work' },
        { before: '#proj/sub', after: '#area__work/sub' },
      ],
    });
    expect(dry.notes.find((n) => n.id === c)?.frontmatter?.after).toEqual(['area__work']);
    expect(await contentOf(vault, a)).toContain('#proj and');

    const applied = (await vault.call('rename_tag', { from: 'proj', to: 'area__work', dry_run: false })) as {
      notes_updated: number;
      not_rewritten: unknown[];
    };
    expect(applied).toMatchObject({ notes_updated: 3, not_rewritten: [] });
    expect(await contentOf(vault, a)).toBe('Working on #area__work and #area__work/sub, not #project.');
    expect(await contentOf(vault, b)).toBe('only inline #area__work here');
    const tags = (await vault.call('list_tags', {})) as { tags: Array<{ tag: string; count: number }> };
    expect(tags.tags.find((t) => t.tag === 'area__work')?.count).toBe(3);
    expect(tags.tags.some((t) => t.tag.toLowerCase() === 'proj')).toBe(false);
  });

  it('refuses names that are not tags', async () => {
    const { vault } = await flint();
    await expect(vault.call('rename_tag', { from: 'a b', to: 'x' })).rejects.toMatchObject({
      code: 'validation_failed',
      details: { field: 'from' },
    });
    await expect(vault.call('rename_tag', { from: 'x', to: '2024' })).rejects.toMatchObject({
      code: 'validation_failed',
      details: { field: 'to' },
    });
  });

  it('checks every note only when the store says something changed: not after a first build, not after a restart with no change', async () => {
    const root = await tempDir('nk-tags-token-');
    await fs.mkdir(path.join(root, 'general'), { recursive: true });
    for (let i = 0; i < 5; i++)
      await fs.writeFile(
        path.join(root, `general/n${i}.md`),
        `---\ntitle: N${i}\ntags: [listed]\n---\n\n#inline${i % 2}\n`,
      );
    const check = async (t: { vault: { resolve: typeof first.vault.resolve } }) =>
      (t.vault.resolve(TAGS) as unknown as TagIndex).reconcile();
    // The open's index pass is a first build: it stores every note's tags, so the first check lists nothing.
    const first = await createTestKernel({ profile: 'flint', root, init: false });
    try {
      expect((await check(first)).scanned).toBe(0);
      expect(((await first.vault.call('list_tags', {})) as { tags: unknown }).tags).toEqual([
        { tag: 'listed', count: 5 },
        { tag: 'inline0', count: 3 },
        { tag: 'inline1', count: 2 },
      ]);
    } finally {
      await first.kernel.close();
    }
    const again = await createTestKernel({ profile: 'flint', root, init: false });
    try {
      expect((await check(again)).scanned).toBe(0);
    } finally {
      await again.kernel.close();
    }
    // Changed while stopped: the open's pass reads it, the token differs, the next check compares every hash once.
    await fs.writeFile(path.join(root, 'general/n0.md'), '---\ntitle: N0\n---\n\n#changed\n');
    const third = await createTestKernel({ profile: 'flint', root, init: false });
    try {
      expect((await check(third)).scanned).toBe(5);
      expect((await check(third)).scanned).toBe(0);
      const tags = ((await third.vault.call('list_tags', {})) as { tags: Array<{ tag: string; count: number }> }).tags;
      expect(tags).toContainEqual({ tag: 'changed', count: 1 });
      expect(tags).toContainEqual({ tag: 'listed', count: 4 });
      // A write through a tool changes the token too: its tags are there at once, and the next check compares again.
      await third.vault.call('create_note', { type: 'general', title: 'Fresh', content: '#fresh' });
      expect(
        ((await third.vault.call('list_tags', {})) as { tags: Array<{ tag: string }> }).tags.map((t) => t.tag),
      ).toContain('fresh');
      expect((await check(third)).scanned).toBe(0);
    } finally {
      await third.close();
    }
  });

  it('keeps tags across restarts and re-reads only what changed offline', async () => {
    const first = await flint();
    await note(first.vault, 'A', '#alpha');
    await first.vault.call('list_tags', {});
    const root = first.root;
    await first.kernel.close();
    await fs.writeFile(path.join(root, 'general/a.md'), '---\ntitle: A\n---\n\n#beta now\n');
    const second = await createTestKernel({ profile: 'flint', root, init: false });
    try {
      const tags = (await second.vault.call('list_tags', {})) as { tags: Array<{ tag: string }> };
      expect(tags.tags.map((t) => t.tag)).toEqual(['beta']);
    } finally {
      await second.close();
    }
  });
});
