/**
 * Renames rewrite inbound links: through rename_note (notes plugin → LINKS.rewriteAfterRename)
 * and through the service directly; aliases kept; display text changed only where it equalled
 * the old title; notes changed meanwhile reported and still resolvable; links_repair finishes.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { definePlugin } from '../../../kernel/plugin.js';
import { builtinCatalogue } from '../../../profiles/catalogue.js';
import { flintProfile } from '../../../profiles/flint/index.js';
import { LINKS } from '../../../plugins/links/service.js';
import { contentOf, create, hashOf, linkIndex, useFlint } from './helpers.js';

const flint = useFlint();

const FORMS = [
  'plain [[Old Title]]',
  'alias [[Old Title|my alias]]',
  'display equal to the title [[old title|Old Title]]',
  'heading [[Old Title#Part 2|part two]] embed ![[Old Title]] block [[Old Title#^b1]]',
  '| table | [[Old Title\\|cell]] |',
  'code `[[Old Title]]` stays, [[Other]] stays',
].join('\n');

const EXPECTED = [
  'plain [[New Name]]',
  'alias [[New Name|my alias]]',
  'display equal to the title [[New Name|New Name]]',
  'heading [[New Name#Part 2|part two]] embed ![[New Name]] block [[New Name#^b1]]',
  '| table | [[New Name\\|cell]] |',
  'code `[[Old Title]]` stays, [[Other]] stays',
].join('\n');

describe('rename rewrites inbound links', () => {
  it('rename_note rewrites every form, keeps aliases, and leaves nothing broken', async () => {
    const { vault } = await flint();
    const target = await create(vault, 'Old Title', 'target body');
    await create(vault, 'Other', 'x');
    const a = await create(vault, 'Linker A', FORMS);
    const b = await create(vault, 'Linker B', 'just [[Old Title]] once');
    const answer = (await vault.call('rename_note', {
      identifier: target,
      new_title: 'New Name',
      content_hash: await hashOf(vault, target),
    })) as Record<string, unknown>;
    expect(answer).toMatchObject({ success: true, total_wikilinks_updated: 8, notes_with_updated_wikilinks: 2 });
    expect(await contentOf(vault, a)).toBe(EXPECTED);
    expect(await contentOf(vault, b)).toBe('just [[New Name]] once');
    expect(((await vault.call('find_broken_links', {})) as { count: number }).count).toBe(0);
    expect(await linkIndex(vault).incoming(target)).toHaveLength(8);
  });

  it('leaves links alone that another note with the old title still answers', async () => {
    const { vault } = await flint();
    const target = await create(vault, 'Shared', 'one');
    const twin = await create(vault, 'Shared', 'two', 'misc');
    const linker = await create(vault, 'Linker', '[[Shared]]');
    const resolvedTo = (await linkIndex(vault).outgoing(linker))[0]?.target_note_id;
    const renamed = resolvedTo === target ? twin : target;
    const report = await vault.resolve(LINKS).rewriteAfterRename(renamed, 'Shared', 'Elsewhere');
    expect(report.links_updated).toBe(0);
    expect(await contentOf(vault, linker)).toBe('[[Shared]]');
  });

  it('links by stem when the new title cannot sit in a wikilink', async () => {
    const { vault } = await flint();
    const target = await create(vault, 'Plain', 'x');
    const linker = await create(vault, 'Linker', '[[Plain]] and [[Plain|kept]]');
    await vault.call('rename_note', {
      identifier: target,
      new_title: 'A | B [draft]',
      content_hash: await hashOf(vault, target),
    });
    expect(await contentOf(vault, linker)).toBe('[[plain|A - B (draft)]] and [[plain|kept]]');
    expect((await linkIndex(vault).outgoing(linker)).map((l) => l.target_note_id)).toEqual([target, target]);
  });

  it('reports notes changed meanwhile; their links still resolve; links_repair finishes the job', async () => {
    let sabotage: { file: string; id: string } | undefined;
    const saboteur = definePlugin<unknown>({
      id: 'saboteur',
      description: 'edits a note on disk between the rewrite reading it and writing it',
      register: () => ({
        hooks: {
          async 'note.beforeWrite'(draft) {
            if (sabotage && draft.op === 'update' && draft.id === sabotage.id) {
              await fs.appendFile(sabotage.file, '\nedited by someone else\n');
              sabotage = undefined;
            }
          },
        },
      }),
    });
    const catalogue = {
      ...builtinCatalogue,
      plugins: [...builtinCatalogue.plugins, saboteur],
      profiles: [
        { ...flintProfile, id: 'flint-sabotage', plugins: { ...flintProfile.plugins, saboteur: true as const } },
      ],
    };
    const { vault, root } = await flint({ profile: 'flint-sabotage', catalogue });
    const target = await create(vault, 'Old Title', 'x');
    const calm = await create(vault, 'Calm', 'see [[Old Title|alias]]');
    const busy = await create(vault, 'Busy', 'see [[Old Title]]');
    sabotage = { file: path.join(root, busy), id: busy };
    const answer = (await vault.call('rename_note', {
      identifier: target,
      new_title: 'New Title',
      content_hash: await hashOf(vault, target),
    })) as {
      not_rewritten: Array<{ id: string; reason: string }>;
      total_wikilinks_updated: number;
    };
    expect(answer.total_wikilinks_updated).toBe(1);
    expect(answer.not_rewritten).toEqual([{ id: busy, reason: expect.stringContaining('content_hash_mismatch') }]);
    expect(await contentOf(vault, calm)).toBe('see [[New Title|alias]]');

    // The busy note still says [[Old Title]], and it still resolves to the renamed note.
    await vault.notes.store.refresh!();
    await linkIndex(vault).reconcile();
    expect(((await vault.call('find_broken_links', {})) as { count: number }).count).toBe(0);
    expect((await linkIndex(vault).outgoing(busy))[0]?.target_note_id).toBe(target);

    const dry = (await vault.call('links_repair', {})) as {
      dry_run: boolean;
      edits: Array<{ note_id: string; before: string; after: string }>;
    };
    expect(dry.dry_run).toBe(true);
    expect(dry.edits).toEqual([{ note_id: busy, line_number: 1, before: '[[Old Title]]', after: '[[New Title]]' }]);
    expect(await contentOf(vault, busy)).toContain('[[Old Title]]');
    const applied = (await vault.call('links_repair', { dry_run: false })) as {
      links_updated: number;
      not_rewritten: unknown[];
    };
    expect(applied).toMatchObject({ links_updated: 1, not_rewritten: [] });
    expect(await contentOf(vault, busy)).toBe('see [[New Title]]\nedited by someone else\n');
    expect(((await vault.call('links_repair', {})) as { edits: unknown[] }).edits).toEqual([]);
    // Once every old link is rewritten the old title is let go: a new [[Old Title]] is broken.
    await create(vault, 'Later', 'a new [[Old Title]]');
    expect(((await vault.call('find_broken_links', {})) as { count: number }).count).toBe(1);
  });
});
