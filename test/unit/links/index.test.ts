/**
 * The link index through the flint profile (fs-sqlite, `index-db`): extraction, resolution by
 * title then filename, broken links that resolve by themselves, deletes, the seed's tool shapes.
 */
import { describe, expect, it, vi } from 'vitest';
import { createTestKernel } from '../../support/temp.js';
import { create, linkIndex, useFlint, type Row } from './helpers.js';

const flint = useFlint();

describe('links index on fs-sqlite', () => {
  it('extracts and resolves every form by title, filename, path; keeps broken ones', async () => {
    const { vault } = await flint();
    const alpha = await create(vault, 'Alpha Plan', '# Alpha\n\n## Intro\ntext ^blk\n');
    const source = await create(
      vault,
      'Source',
      [
        'See [[Alpha Plan]] and [[alpha plan|the plan]].',
        'By filename [[alpha-plan]], by path [[general/alpha-plan]], heading [[Alpha Plan#Intro]], block [[Alpha Plan#^blk]].',
        '![[Alpha Plan]] and [[Nowhere]] and `[[In Code]]`.',
        '[site](https://example.com/x) https://bare.example.org',
      ].join('\n'),
    );
    const links = (await vault.call('get_note_links', { identifier: source })) as {
      success: boolean;
      note_id: string;
      outgoing_internal: Row[];
      outgoing_external: Array<{ url: string; link_type: string; line_number: number }>;
      incoming: Row[];
    };
    expect(links.success).toBe(true);
    expect(links.note_id).toBe(source);
    expect(links.outgoing_internal.map((l) => [l.target_title, l.target_note_id, l.line_number])).toEqual([
      ['Alpha Plan', alpha, 1],
      ['alpha plan', alpha, 1],
      ['alpha-plan', alpha, 2],
      ['general/alpha-plan', alpha, 2],
      ['Alpha Plan#Intro', alpha, 2],
      ['Alpha Plan#^blk', alpha, 2],
      ['Alpha Plan', alpha, 3],
      ['Nowhere', null, 3],
    ]);
    expect(links.outgoing_internal[1]?.link_text).toBe('the plan');
    expect(links.outgoing_external.map((e) => [e.url, e.link_type, e.line_number])).toEqual([
      ['https://example.com/x', 'url', 4],
      ['https://bare.example.org', 'url', 4],
    ]);
    const back = (await vault.call('get_backlinks', { identifier: 'Alpha Plan' })) as {
      note_id: string;
      backlinks: Row[];
    };
    expect(back.note_id).toBe(alpha);
    expect(back.backlinks).toHaveLength(7);
    expect(Object.keys(back.backlinks[0] ?? {})).toEqual([
      'id',
      'source_note_id',
      'target_note_id',
      'target_title',
      'link_text',
      'line_number',
      'created',
    ]);
  });

  it('a broken link resolves by itself when a matching note appears, and breaks again on delete', async () => {
    const { vault } = await flint();
    const source = await create(vault, 'Source', 'Waiting for [[Future Note|later]].');
    let broken = (await vault.call('find_broken_links', {})) as { broken_links: Row[]; count: number };
    expect(broken.count).toBe(1);
    expect(broken.broken_links[0]).toMatchObject({
      source_note_id: source,
      target_title: 'Future Note',
      link_text: 'later',
    });

    const future = await create(vault, 'Future Note', 'here now');
    broken = (await vault.call('find_broken_links', {})) as { broken_links: Row[]; count: number };
    expect(broken.count).toBe(0);
    expect(await linkIndex(vault).incoming(future)).toHaveLength(1);

    const before = (await vault.call('get_note', { identifier: source })) as { content_hash: string };
    await vault.call('delete_note', { identifier: future, confirm: true });
    broken = (await vault.call('find_broken_links', {})) as { broken_links: Row[]; count: number };
    expect(broken.count).toBe(1);
    // Deleting turns links broken and nothing else: the linking note is untouched.
    expect(((await vault.call('get_note', { identifier: source })) as { content_hash: string }).content_hash).toBe(
      before.content_hash,
    );
  });

  it('prefers a title over a filename and the smallest id among equal titles', async () => {
    const { vault } = await flint();
    const byStem = await create(vault, 'Other Title', 'x');
    // A note titled like the first one's filename wins over the filename.
    const byTitle = await create(vault, 'other-title', 'y', 'misc');
    const source = await create(vault, 'Source', '[[other-title]]');
    expect((await linkIndex(vault).outgoing(source))[0]?.target_note_id).toBe(byTitle);
    expect(byStem).toBe('general/other-title.md');
    expect(await linkIndex(vault).resolve('Other Title')).toBe(byStem);
    expect(await linkIndex(vault).resolve('[[Missing]]')).toBeNull();
    expect(await linkIndex(vault).titleOwners('  OTHER   title ')).toEqual([byStem]);
  });

  it('search_by_links combines criteria; get_link_graph walks both ways and lists orphans', async () => {
    const { vault } = await flint();
    const a = await create(vault, 'A', '[[B]] [[C]] https://docs.github.com/x');
    const b = await create(vault, 'B', '[[C]] [[Gone]]');
    const c = await create(vault, 'C', 'leaf [docs](https://example.org)');
    const hub = (await vault.call('search_by_links', { has_links_to: ['C'] })) as {
      notes: Array<{ id: string }>;
      count: number;
    };
    expect(hub.notes.map((n) => n.id).sort()).toEqual([a, b].sort());
    const both = (await vault.call('search_by_links', { has_links_to: ['C'], broken_links: true })) as {
      notes: Array<{ id: string }>;
    };
    expect(both.notes.map((n) => n.id)).toEqual([b]);
    const gh = (await vault.call('search_by_links', { external_domains: ['github.com'] })) as {
      notes: Array<{ id: string }>;
    };
    expect(gh.notes.map((n) => n.id)).toEqual([a]);
    const from = (await vault.call('search_by_links', { linked_from: ['A'] })) as {
      notes: Array<{ id: string; title: string }>;
    };
    expect(from.notes.map((n) => n.id).sort()).toEqual([b, c].sort());

    const graph = (await vault.call('get_link_graph', { identifier: 'C', depth: 2 })) as {
      nodes: Array<{ id: string; title: string; distance: number }>;
      edges: Array<{ source: string; target: string; count: number }>;
    };
    expect(graph.nodes).toEqual([
      { id: c, title: 'C', distance: 0 },
      { id: a, title: 'A', distance: 1 },
      { id: b, title: 'B', distance: 1 },
    ]);
    expect(graph.edges).toEqual([
      { source: a, target: b, count: 1 },
      { source: a, target: c, count: 1 },
      { source: b, target: c, count: 1 },
    ]);
    const orphans = (await vault.call('get_link_graph', {})) as {
      orphans: Array<{ id: string }>;
      orphan_count: number;
    };
    expect(orphans.orphans.map((o) => o.id)).toContain(a);
    expect(orphans.orphans.map((o) => o.id)).not.toContain(c);
  });

  it('migrate_links refuses without force, rebuilds with it', async () => {
    const { vault } = await flint();
    await create(vault, 'A', '[[B]]');
    expect(await vault.call('migrate_links', {})).toMatchObject({ success: false, existing_links: 1 });
    expect(await vault.call('migrate_links', { force: true })).toMatchObject({
      success: true,
      processed: 2,
      errors: 0,
    });
    expect(((await vault.call('find_broken_links', {})) as { count: number }).count).toBe(1);
  });

  it('resolves names letter-folded as search folds them: [[Lodz]] and [[łódź]] find Łódź', async () => {
    const { vault } = await flint();
    const lodz = await create(vault, 'Łódź', 'the city');
    const oresund = await create(vault, 'Øresund Straße', 'the bridge');
    const source = await create(vault, 'Source', 'See [[Lodz]], [[łódź]], [[LODZ|city]] and [[oresund strasse]].');
    const links = (await vault.call('get_note_links', { identifier: source })) as { outgoing_internal: Row[] };
    expect(links.outgoing_internal.map((l) => l.target_note_id)).toEqual([lodz, lodz, lodz, oresund]);
    expect(((await vault.call('get_backlinks', { identifier: 'lodz' })) as { note_id: string }).note_id).toBe(lodz);
  });

  it('a reopened vault whose files did not change skips the listing: names come from the link index', async () => {
    const first = await flint();
    const target = await create(first.vault, 'Target Note', 'here');
    const source = await create(first.vault, 'Source', 'see [[Target Note]]');
    await linkIndex(first.vault).reconcile();
    const again = await createTestKernel({ profile: 'flint', root: first.root, init: false });
    try {
      const list = vi.spyOn(again.vault.notes.store, 'list');
      const back = (await again.vault.call('get_backlinks', { identifier: 'Target Note' })) as {
        note_id: string;
        backlinks: Row[];
      };
      expect(back.note_id).toBe(target);
      expect(back.backlinks.map((b) => b.source_note_id)).toEqual([source]);
      expect(list).not.toHaveBeenCalled();
      // A write changes the store's token: the next reconcile lists and compares again.
      const hash = ((await again.vault.call('get_note', { identifier: source })) as { content_hash: string })
        .content_hash;
      await again.vault.call('update_note', { identifier: source, content: 'no link now', content_hash: hash });
      await linkIndex(again.vault).reconcile();
      expect(list).toHaveBeenCalled();
    } finally {
      await again.kernel.close();
    }
  });

  it('unknown identifiers fail with not_found', async () => {
    const { vault } = await flint();
    await expect(vault.call('get_backlinks', { identifier: 'No Such Note' })).rejects.toMatchObject({
      code: 'not_found',
    });
  });
});
