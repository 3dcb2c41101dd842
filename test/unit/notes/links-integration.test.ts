/**
 * rename_note, delete_note, bulk_delete_notes and analyze_note with a LINKS service present.
 * The links plugin is built separately; a small stand-in that reads [[Title]] links provides
 * the same contract here.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { toNotekernelError, type ErrorBody } from '../../../kernel/errors.js';
import type { Catalogue } from '../../../profiles/catalogue-types.js';
import { definePlugin, provide, type PluginContext } from '../../../kernel/plugin.js';
import { LINKS, type LinkRef, type LinksService } from '../../../plugins/links/service.js';
import { builtinCatalogue } from '../../../profiles/catalogue.js';
import { flintProfile } from '../../../profiles/flint/index.js';
import { createTestKernel, type TestKernel } from '../../support/temp.js';

function standInLinks(ctx: PluginContext<unknown>, failRewrite: () => boolean): LinksService {
  const all = async () => Promise.all((await ctx.notes.list()).map((s) => ctx.notes.require(s.id)));
  const refs = (source: string, content: string): Array<Omit<LinkRef, 'target_note_id'>> =>
    content.split('\n').flatMap((line, i) =>
      [...line.matchAll(/\[\[([^\]|]+)(?:\|([^\]]+))?\]\]/g)].map((m) => ({
        source_note_id: source,
        target_title: m[1] as string,
        link_text: m[2] ?? null,
        line_number: i + 1,
      })),
    );
  return {
    async planRename(noteId, oldTitle, newTitle) {
      if (failRewrite()) throw new Error('index unavailable');
      const rewrites = [];
      for (const note of await all()) {
        if (note.id === noteId) continue;
        const count = refs(note.id, note.content).filter((r) => r.target_title === oldTitle).length;
        if (!count) continue;
        const content = note.content.split(`[[${oldTitle}`).join(`[[${newTitle}`);
        rewrites.push({
          id: note.id,
          note,
          content,
          edits: Array.from({ length: count }, () => ({ note_id: note.id, line_number: 1, before: '', after: '' })),
        });
      }
      return { rewrites, not_rewritten: [] };
    },
    async rewriteAfterRename(noteId, oldTitle, newTitle) {
      if (failRewrite()) throw new Error('index unavailable');
      let links = 0;
      let notes = 0;
      for (const note of await all()) {
        if (note.id === noteId) continue;
        const count = refs(note.id, note.content).filter((r) => r.target_title === oldTitle).length;
        if (!count) continue;
        await ctx.notes.update(
          note.id,
          { content: note.content.split(`[[${oldTitle}`).join(`[[${newTitle}`) },
          note.contentHash,
        );
        links += count;
        notes++;
      }
      return { links_updated: links, notes_updated: notes, not_rewritten: [] };
    },
    async incoming(noteId) {
      const target = await ctx.notes.require(noteId);
      return (await all()).flatMap((n) =>
        refs(n.id, n.content)
          .filter((r) => r.target_title === target.title)
          .map((r) => ({ ...r, target_note_id: noteId })),
      );
    },
    async brokenFrom(noteId) {
      const titles = new Set((await ctx.notes.list()).map((n) => n.title));
      const note = await ctx.notes.require(noteId);
      return refs(note.id, note.content)
        .filter((r) => !titles.has(r.target_title))
        .map((r) => ({ ...r, target_note_id: null }));
    },
  };
}

let failRewrite = false;
const linksPlugin = definePlugin<unknown>({
  id: 'stand-in-links',
  description: 'test',
  register: (ctx) => ({
    services: [
      provide(
        LINKS,
        standInLinks(ctx, () => failRewrite),
      ),
    ],
  }),
});
const catalogue: Catalogue = {
  ...builtinCatalogue,
  plugins: [...builtinCatalogue.plugins, linksPlugin],
  profiles: [{ ...flintProfile, id: 'flint-links', plugins: { ...flintProfile.plugins, 'stand-in-links': true } }],
};

let t: TestKernel;
beforeEach(async () => {
  failRewrite = false;
  t = await createTestKernel({ profile: 'flint-links', catalogue });
  for (const [title, content] of [
    ['Alpha', 'Start.'],
    ['Beta', 'See [[Alpha]] and [[Alpha|the first]].\nAlso [[Missing Note]].'],
    ['Gamma', 'Back to [[Alpha]].'],
  ]) {
    await t.vault.call('create_note', { title, content });
  }
});
afterEach(async () => {
  await t.close();
});

const read = (id: string) =>
  t.vault.call('get_note', { identifier: id }) as Promise<{ content: string; content_hash: string; title: string }>;
async function fails(name: string, args: unknown): Promise<ErrorBody> {
  try {
    await t.vault.call(name, args);
  } catch (err) {
    return toNotekernelError(err).toBody();
  }
  throw new Error(`${name} succeeded`);
}

describe('with a LINKS service', () => {
  it('rename_note rewrites inbound wikilinks and reports the counts; id and filename stay', async () => {
    const alpha = await read('general/alpha.md');
    const answer = (await t.vault.call('rename_note', {
      identifier: 'general/alpha.md',
      new_title: 'Alpha Prime',
      content_hash: alpha.content_hash,
    })) as Record<string, unknown>;
    expect(answer).toMatchObject({
      success: true,
      identifier: 'general/alpha.md',
      filename: 'alpha.md',
      old_title: 'Alpha',
      new_title: 'Alpha Prime',
      wikilinks_updated: true,
      notes_with_updated_wikilinks: 2,
      total_wikilinks_updated: 3,
    });
    expect(answer.warnings).toBeUndefined();
    expect((await read('general/beta.md')).content).toContain('[[Alpha Prime]] and [[Alpha Prime|the first]]');
    expect((await read('general/alpha.md')).title).toBe('Alpha Prime');
  });

  it('rename_note keeps the rename when rewriting links fails, and says so', async () => {
    failRewrite = true;
    const alpha = await read('general/alpha.md');
    const answer = (await t.vault.call('rename_note', {
      identifier: 'general/alpha.md',
      new_title: 'A2',
      content_hash: alpha.content_hash,
    })) as { warnings: string[] };
    expect(answer.warnings).toEqual([
      expect.stringMatching(/renamed, but rewriting wikilinks failed: index unavailable/),
    ]);
    expect((await read('general/alpha.md')).title).toBe('A2');
  });

  it('delete_note asks for confirmation when other notes link here, even if the config does not', async () => {
    await fs.writeFile(path.join(t.root, '.flint-note', 'config.yml'), 'deletion:\n  require_confirmation: false\n');
    const body = await fails('delete_note', { identifier: 'general/alpha.md' });
    expect(body).toMatchObject({
      error: 'validation_failed',
      field: 'confirm',
      incoming_links: ['general/beta.md', 'general/gamma.md'],
    });
    expect(body.message).toMatch(/because 2 note\(s\) link to it/);
    const answer = (await t.vault.call('delete_note', { identifier: 'general/alpha.md', confirm: true })) as {
      result: { warnings: string[]; incoming_links: string[] };
    };
    expect(answer.result.incoming_links).toEqual(['general/beta.md', 'general/gamma.md']);
    expect(answer.result.warnings).toEqual([
      expect.stringMatching(
        /incoming links from 2 note\(s\) that will become broken: general\/beta.md, general\/gamma.md/,
      ),
    ]);
    // Unlinked notes need no confirmation under this config.
    await t.vault.call('delete_note', { identifier: 'general/gamma.md' });
  });

  it('analyze_note lists broken links with their line, and suggests fixing them', async () => {
    const answer = (await t.vault.call('analyze_note', { identifier: 'general/beta.md' })) as {
      broken_links: unknown[];
      links_checked: boolean;
      suggestions: string[];
    };
    expect(answer.links_checked).toBe(true);
    expect(answer.broken_links).toEqual([{ target: 'Missing Note', line_number: 2 }]);
    expect(answer.suggestions).toContain(
      'Link [[Missing Note]] on line 2 points to no note: create that note or correct the link.',
    );
  });
});
