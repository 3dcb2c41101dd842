/**
 * The same behaviour on a backend without `index-db`: links kept in memory behind the same
 * interface (fs-sqlite with its index-db capability hidden).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defineBackend, type BackendDefinition, type NoteStore } from '../../../kernel/backend.js';
import { fsSqliteBackend } from '../../../backends/fs-sqlite/index.js';
import { builtinCatalogue } from '../../../profiles/catalogue.js';
import { flintProfile } from '../../../profiles/flint/index.js';
import { createSqliteLinkStore } from '../../../plugins/links/store/sqlite.js';
import { createMemoryLinkStore } from '../../../plugins/links/store/memory.js';
import { contentOf, create, hashOf, linkIndex, useFlint } from './helpers.js';

const plain = defineBackend({
  ...(fsSqliteBackend as BackendDefinition<unknown>),
  id: 'fs-plain',
  capabilities: fsSqliteBackend.capabilities.filter((c) => c !== 'index-db'),
  async create(ctx) {
    const instance = await fsSqliteBackend.create(ctx as Parameters<typeof fsSqliteBackend.create>[0]);
    const store = instance.store as NoteStore;
    const hidden = new Proxy(store, {
      get: (target, prop) => {
        if (prop === 'indexDb') return undefined;
        const value = Reflect.get(target, prop, target) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    return { store: hidden, ...(instance.search ? { search: instance.search } : {}) };
  },
});

const catalogue = {
  ...builtinCatalogue,
  backends: [...builtinCatalogue.backends, plain as BackendDefinition<unknown>],
  profiles: [{ ...flintProfile, id: 'flint-memory', storage: { ...flintProfile.storage, backend: 'fs-plain' } }],
};

const flint = useFlint();

describe('links without index-db (in-memory index)', () => {
  it('extracts, resolves, breaks, renames and repairs moves the same way', async () => {
    const { vault, root } = await flint({ profile: 'flint-memory', catalogue });
    const target = await create(vault, 'Old Title', 'x');
    const linker = await create(vault, 'Linker', '[[Old Title|alias]] [[old-title]] [[Missing]]');
    expect(((await vault.call('find_broken_links', {})) as { count: number }).count).toBe(1);
    expect(await linkIndex(vault).incoming(target)).toHaveLength(2);

    await vault.call('rename_note', {
      identifier: target,
      new_title: 'New Title',
      content_hash: await hashOf(vault, target),
    });
    expect(await contentOf(vault, linker)).toBe('[[New Title|alias]] [[old-title]] [[Missing]]');

    await fs.rename(path.join(root, target), path.join(root, 'general/elsewhere.md'));
    const repaired = (await vault.call('links_repair', { dry_run: false })) as {
      links_updated: number;
      moves: Array<{ to_id: string }>;
    };
    expect(repaired.moves.map((m) => m.to_id)).toEqual(['general/elsewhere.md']);
    expect(await contentOf(vault, linker)).toBe('[[New Title|alias]] [[elsewhere]] [[Missing]]');
    expect(
      ((await vault.call('get_backlinks', { identifier: 'general/elsewhere.md' })) as { backlinks: unknown[] })
        .backlinks,
    ).toHaveLength(2);
  });
});

describe('the two LinkStore implementations agree', () => {
  it('answer the same queries the same way', async () => {
    const { vault } = await flint();
    const db = vault.notes.store.indexDb;
    if (!db) throw new Error('fs-sqlite should provide index-db');
    for (const store of [createSqliteLinkStore(db, 'links'), createMemoryLinkStore()]) {
      store.clear();
      const link = (target: string | null, key: string, line: number) => ({
        target_note_id: target,
        target_title: key,
        link_text: null,
        line_number: line,
        target_key: key,
        kind: 'wikilink' as const,
        resolved_by: target ? ('title' as const) : null,
        start_offset: line,
        end_offset: line + 5,
      });
      store.replaceNote(
        { note_id: 'a', content_hash: 'h1', title: 'A', stem: 'a' },
        [link('b', 'b', 2), link(null, 'x', 1)],
        [{ url: 'https://e.org', title: null, line_number: 3, link_type: 'url' }],
      );
      store.replaceNote({ note_id: 'c', content_hash: 'h1', title: 'C', stem: 'c' }, [link('b', 'b', 1)], []);
      expect(store.outgoing('a').map((l) => l.target_key)).toEqual(['x', 'b']);
      expect(
        store
          .incoming('b')
          .map((l) => l.source_note_id)
          .sort(),
      ).toEqual(['a', 'c']);
      expect(store.broken().map((l) => l.source_note_id)).toEqual(['a']);
      expect(
        store
          .statesByHash('h1')
          .map((s) => s.note_id)
          .sort(),
      ).toEqual(['a', 'c']);
      store.renameNote('b', 'b2');
      expect(store.incoming('b2')).toHaveLength(2);
      store.retarget(store.byKeys(['x']).map((l) => ({ id: l.id, target: 'c', by: 'stem' as const })));
      expect(store.broken()).toEqual([]);
      expect(store.edges().length).toBe(3);
      store.removeNote('a');
      expect(store.counts()).toEqual({ links: 1, externals: 0, notes: 1 });
      store.setFormer('t:old', 'c');
      expect(store.formers().get('t:old')).toBe('c');
      store.recordMove({ from_id: 'x', to_id: 'c', from_name: 'x', to_name: 'c', how: 'content_hash' });
      const [move] = store.moves({ pending: true });
      store.markRepaired([move?.id ?? -1]);
      expect(store.moves({ pending: true })).toEqual([]);
    }
  });
});

describe('replacing a note’s links (both stores)', () => {
  it('ends with exactly the new links, whether their count stays or changes', async () => {
    const { vault } = await flint();
    const db = vault.notes.store.indexDb;
    if (!db) throw new Error('fs-sqlite should provide index-db');
    const link = (key: string, start: number, target: string | null = key) => ({
      target_note_id: target,
      target_title: key,
      link_text: null,
      line_number: 1,
      target_key: key,
      kind: 'wikilink' as const,
      resolved_by: target ? ('title' as const) : null,
      start_offset: start,
      end_offset: start + key.length + 4,
    });
    const state = { note_id: 'a', content_hash: 'h1', title: 'A', stem: 'a' };
    const view = (store: ReturnType<typeof createMemoryLinkStore>) =>
      store.outgoing('a').map((l) => [l.target_key, l.target_note_id, l.start_offset, l.end_offset, l.resolved_by]);
    for (const store of [createSqliteLinkStore(db, 'links'), createMemoryLinkStore()]) {
      store.clear();
      store.replaceNote(
        state,
        [link('b', 0), link('old', 10), link('c', 20)],
        [{ url: 'https://e.org', title: null, line_number: 1, link_type: 'url' }],
        true,
      );
      const ids = store.outgoing('a').map((l) => l.id);
      // A rename's rewrite: same number of links, one new target, later offsets shifted.
      store.replaceNote(
        { ...state, content_hash: 'h2' },
        [link('b', 0), link('new title', 10, null), link('c', 26)],
        [{ url: 'https://e.org', title: null, line_number: 1, link_type: 'url' }],
      );
      expect(view(store)).toEqual([
        ['b', 'b', 0, 5, 'title'],
        ['new title', null, 10, 23, null],
        ['c', 'c', 26, 31, 'title'],
      ]);
      expect(store.incoming('old')).toEqual([]);
      if (store.kind === 'index-db') expect(store.outgoing('a').map((l) => l.id)).toEqual(ids); // updated in place
      // A different number of links, and another external link.
      store.replaceNote(
        { ...state, content_hash: 'h3' },
        [link('d', 3)],
        [{ url: 'https://f.org', title: 'F', line_number: 2, link_type: 'url' }],
      );
      expect(view(store)).toEqual([['d', 'd', 3, 8, 'title']]);
      expect(store.externals('a').map((e) => [e.url, e.title, e.line_number])).toEqual([['https://f.org', 'F', 2]]);
      expect(store.counts()).toEqual({ links: 1, externals: 1, notes: 1 });
    }
  });
});
