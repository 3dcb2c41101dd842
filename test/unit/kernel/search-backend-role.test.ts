/**
 * A vault whose search is served by a second backend (the memory example) beside fs-sqlite:
 * capabilities by role, the index outbox (a failing index never fails a write; a search waits
 * for the index), and the reconcile at open that repairs an index which missed writes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { defineBackend, type SearchIndex } from '../../../kernel/backend.js';
import { definePlugin } from '../../../kernel/plugin.js';
import type { Catalogue } from '../../../profiles/catalogue-types.js';
import { builtinCatalogue } from '../../../profiles/catalogue.js';
import { memoryBackend } from '../../../examples/memory-backend/index.js';
import { MemoryKeywordIndex } from '../../../examples/memory-backend/search.js';
import { createTestKernel, removeDir, tempDir, type TestKernel } from '../../support/temp.js';

/** One keyword index that outlives a vault (as an index on disk would), and a switch that makes its writes fail. */
function flakyIndex() {
  const shared = new MemoryKeywordIndex();
  const faults = { upserts: 0, hang: false };
  const index: SearchIndex = {
    search: (query) => shared.search(query),
    upsert: async (note) => {
      if (faults.hang) return new Promise<void>(() => undefined);
      if (faults.upserts > 0) {
        faults.upserts -= 1;
        throw new Error('index disk full');
      }
      return shared.upsert(note);
    },
    remove: (id) => shared.remove(id),
    reconcile: (source) => shared.reconcile(source),
    close: async () => undefined,
  };
  const backend = defineBackend<Record<string, never>>({
    ...memoryBackend,
    id: 'flaky-search',
    kind: 'search',
    async create() {
      return { search: index };
    },
  });
  return { faults, backend };
}

function catalogue(extra: Catalogue['backends'] = []): Catalogue {
  return {
    ...builtinCatalogue,
    backends: [...builtinCatalogue.backends, memoryBackend as Catalogue['backends'][number], ...extra],
  };
}

const hitsOf = async (t: TestKernel, query: string) =>
  ((await t.vault.call('search_notes', { query })) as { results: Array<{ title: string }> }).results.map(
    (r) => r.title,
  );

describe('a search backend beside fs-sqlite', () => {
  const open: TestKernel[] = [];
  afterEach(async () => {
    for (const t of open.splice(0)) await t.close();
  });

  it('opens, serves search from the second backend, and offers only what that backend can do', async () => {
    const t = await createTestKernel({ config: { search: { backend: 'memory' } }, catalogue: catalogue() });
    open.push(t);
    expect(t.kernel.plan.capabilities.has('sql')).toBe(false);
    expect(t.kernel.plan.providers.get('full-text')).toBe('memory');
    expect(t.kernel.plan.providers.get('typed-notes')).toBe('fs-sqlite');
    const tools = t.vault.tools().map((tool) => tool.name);
    expect(tools).toContain('search_notes');
    expect(tools).not.toContain('search_notes_sql');

    await t.vault.call('create_note', {
      type: 'general',
      title: 'Osprey sighting',
      content: 'A fish hawk over the lake.',
    });
    expect(await hitsOf(t, 'osprey')).toEqual(['Osprey sighting']);
    const refused = await t.vault
      .call('search_notes', { query: 'osp.*', use_regex: true })
      .catch((err: unknown) => err);
    expect(refused).toMatchObject({ code: 'capability_missing', details: { capability: 'regex', backend: 'memory' } });
    // fs-sqlite was told another backend serves the searches: no full-text rows for the note.
    const db = t.vault.notes.store.indexDb!;
    expect(db.get("SELECT count(*) AS n FROM notes_fts WHERE notes_fts MATCH 'osprey'")).toEqual({ n: 0 });
    expect(db.get("SELECT count(*) AS n FROM notes WHERE title = 'Osprey sighting'")).toEqual({ n: 1 });
  });

  it('a plugin that needs a search capability the search backend lacks is refused, naming the role and that backend', async () => {
    const needsSql = definePlugin({
      id: 'needs-sql',
      description: 'wants read-only SQL',
      requires: ['sql'],
      register: () => ({}),
    });
    const cat = catalogue();
    const withPlugin: Catalogue = { ...cat, plugins: [...cat.plugins, needsSql as Catalogue['plugins'][number]] };
    await expect(
      createTestKernel({
        config: { search: { backend: 'memory' }, plugins: { 'needs-sql': true } },
        catalogue: withPlugin,
      }),
    ).rejects.toMatchObject({
      code: 'capability_missing',
      details: { plugin: 'needs-sql', capability: 'sql', role: 'search', backend: 'memory' },
    });
  });

  it('a failing index never fails the write; the next search sees the note once the index recovers', async () => {
    const { faults, backend } = flakyIndex();
    const t = await createTestKernel({
      config: { search: { backend: 'flaky-search' } },
      catalogue: catalogue([backend]),
    });
    open.push(t);
    faults.upserts = 3;
    const created = await t.vault.call('create_note', {
      type: 'general',
      title: 'Grebe nest',
      content: 'On the reeds.',
    });
    expect(created).toMatchObject({ title: 'Grebe nest' });
    expect(await hitsOf(t, 'grebe')).toEqual(['Grebe nest']);
    expect(faults.upserts).toBe(0);
  });

  it('an index that missed a write (the process died before it) is repaired at the next open', async () => {
    const { faults, backend } = flakyIndex();
    const root = await tempDir();
    try {
      const first = await createTestKernel({
        root,
        config: { search: { backend: 'flaky-search' } },
        catalogue: catalogue([backend]),
      });
      faults.hang = true;
      await first.vault.call('create_note', { type: 'general', title: 'Heron roost', content: 'Dawn count: 12.' });
      // The first process "dies": it never closes, its queued upsert never lands.
      faults.hang = false;
      const second = await createTestKernel({
        root,
        init: false,
        config: { search: { backend: 'flaky-search' } },
        catalogue: catalogue([backend]),
      });
      open.push(second);
      expect(await hitsOf(second, 'heron')).toEqual(['Heron roost']);
    } finally {
      await removeDir(root);
    }
  });
});
