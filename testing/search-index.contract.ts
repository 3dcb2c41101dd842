/**
 * The SearchIndex contract every `full-text` backend must pass: a backend's test file calls
 * `describeSearchIndexContract(name, open)` with a factory opening a fresh, empty store and an
 * index (its own, or a separate one over that store). Notes are written through NoteStore.create
 * and handed to `search.upsert`, which a backend that indexes its own writes treats as a
 * re-sync; only the contract's members are used. What needs more than `full-text` (metadata
 * filters and sorts, regex, reconcile, vectors) runs where the index declares it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CAPABILITY_MEMBERS,
  type Capability,
  type CapabilityName,
  type Extension,
  type NoteStore,
  type SearchIndex,
  type SearchQuery,
} from '../kernel/backend.js';
import { declares } from './contract-support.js';
import type { NewNote } from '../kernel/note.js';
import { describeQuerySyntax } from './query-syntax.table.js';
import { describeVectorCases } from './search-vectors.contract.js';

export interface SearchSubject {
  store: NoteStore;
  search: SearchIndex;
  /** The index's capabilities (its search role). */
  capabilities: readonly CapabilityName[];
  /**
   * What the store can keep of the contract's notes (both by default). A store without types or
   * free metadata (Simplenote) gets the notes without them, and a type filter must match nothing.
   */
  storeKeeps?: { types?: boolean; metadata?: boolean };
  /** The index's declared extensions (`definition.extensions`): when given, each optional member is checked against them. */
  extensions?: readonly Extension[];
  close(): Promise<void>;
}

const NOTES: NewNote[] = [
  {
    title: 'Kestrel launch plan',
    content: 'Budget review for the kestrel launch.',
    type: 'projects',
    metadata: { status: 'active', priority: 10, due: '2024-06-01', tags: ['launch', 'birds'] },
  },
  {
    title: 'Heron archive',
    content: 'Old notes; the kestrel is mentioned once.',
    type: 'projects',
    metadata: { status: 'done', priority: 9, due: '2024-05-01', tags: ['birds'] },
  },
  {
    title: 'Café crème',
    content: 'Tasting notes from the café.',
    type: 'journal',
    metadata: { status: 'active', priority: 2 },
  },
];

export function describeSearchIndexContract(name: string, open: () => Promise<SearchSubject>): void {
  describeQuerySyntax(name, open);
  describe(`SearchIndex contract: ${name}`, () => {
    let s: SearchSubject;
    const ids = async (query: Partial<SearchQuery>) =>
      (await s.search.search({ text: '', limit: 50, ...query })).hits.map((h) => h.id);
    const idOf = (title: string) => s.store.list({ limit: 100 }).then((all) => all.find((n) => n.title === title)?.id);
    const has = (capability: Capability) => declares(s.capabilities, capability);
    const keeps = (what: 'types' | 'metadata') => s.storeKeeps?.[what] !== false;

    beforeAll(async () => {
      s = await open();
      for (const { type, metadata, ...rest } of NOTES) {
        const input: NewNote = {
          ...rest,
          ...(keeps('types') && type ? { type } : {}),
          ...(keeps('metadata') && metadata ? { metadata } : {}),
        };
        await s.search.upsert(await s.store.create(input));
      }
    });
    afterAll(() => s.close());

    it('ranks a title hit above a body mention and marks the match', async () => {
      const page = await s.search.search({ text: 'kestrel', limit: 10 });
      expect(page.total).toBe(2);
      expect(page.hits[0]?.id).toBe(await idOf('Kestrel launch plan'));
      expect(page.hits.some((h) => h.snippet.includes('<mark>'))).toBe(true);
    });

    it('folds case and diacritics, and never fails on odd syntax', async () => {
      expect(await ids({ text: 'CAFE' })).toEqual([await idOf('Café crème')]);
      for (const text of ['"unclosed', 'a OR', '(*)', 'NEAR(x', '-'])
        await expect(s.search.search({ text, limit: 5 })).resolves.toBeDefined();
    });

    it('an empty text lists notes, most recently updated first; nothing matching is an empty page', async () => {
      expect((await ids({})).length).toBe(3);
      expect(await s.search.search({ text: 'zzzyyyxxx', limit: 5 })).toEqual({ hits: [], total: 0 });
    });

    it('compares metadata by stored type, and sorts by it', async (ctx) => {
      if (!has('metadata-query')) ctx.skip();
      expect(await ids({ metadata: [{ key: 'priority', operator: '>', value: 9 }] })).toEqual([
        await idOf('Kestrel launch plan'),
      ]);
      expect(await ids({ metadata: [{ key: 'due', operator: '<', value: '2024-05-15' }] })).toEqual([
        await idOf('Heron archive'),
      ]);
      expect((await ids({ metadata: [{ key: 'tags', value: 'birds' }] })).length).toBe(2);
      expect(await ids({ type: 'projects', sort: [{ field: 'metadata.priority', order: 'asc' }] })).toEqual([
        await idOf('Heron archive'),
        await idOf('Kestrel launch plan'),
      ]);
    });

    it('pages with limit and offset; total counts every match', async () => {
      const all = await ids({});
      const second = await s.search.search({ text: '', limit: 1, offset: 1 });
      expect(second.total).toBe(3);
      expect(second.hits.map((h) => h.id)).toEqual([all[1]]);
      expect((await s.search.search({ text: '', limit: 5, offset: 3 })).hits).toEqual([]);
    });

    it('filters by type', async () => {
      expect((await ids({ text: 'kestrel', type: 'journal' })).length).toBe(0);
      expect((await ids({ type: 'journal' })).length).toBe(keeps('types') ? 1 : 0);
    });

    it('follows upserts and removals', async () => {
      const note = await s.store.create({ title: 'Ephemeral osprey', content: 'first words' });
      await s.search.upsert(note);
      expect(await ids({ text: 'osprey' })).toEqual([note.id]);
      const changed = await s.store.update(note.id, { content: 'second words' }, note.contentHash);
      await s.search.upsert(changed);
      expect(await ids({ text: 'first' })).toEqual([]);
      expect(await ids({ text: 'second' })).toEqual([note.id]);
      await s.store.delete(note.id);
      await s.search.remove(note.id);
      expect(await ids({ text: 'osprey' })).toEqual([]);
    });

    it('matches a regular expression', async (ctx) => {
      if (!has('regex')) ctx.skip();
      expect(await ids({ text: 'kest\\w+ launch', regex: true })).toEqual([await idOf('Kestrel launch plan')]);
    });

    it('reconcile catches up with notes written, changed and deleted behind its back', async (ctx) => {
      const reconcile = s.search.reconcile?.bind(s.search);
      if (!reconcile) ctx.skip();
      // A store that indexes its own writes has told its index already; a separate index has not.
      const missed = await s.store.create({ title: 'Missed grebe', content: 'never upserted' });
      await reconcile!(s.store);
      expect(await ids({ text: 'grebe' })).toEqual([missed.id]);
      await s.store.delete(missed.id);
      await reconcile!(s.store);
      expect(await ids({ text: 'grebe' })).toEqual([]);
      expect((await reconcile!(s.store)).upserted).toBe(0);
    });

    describeVectorCases(() => s);

    it('each optional member exists exactly when its capability or extension is declared', () => {
      const index = s.search as unknown as Record<string, unknown>;
      for (const entry of CAPABILITY_MEMBERS) {
        if (entry.on !== 'search') continue;
        const declared = 'capability' in entry ? has(entry.capability) : s.extensions?.includes(entry.extension);
        if (declared === undefined) continue;
        expect(index[entry.member] !== undefined, `search.${entry.member}`).toBe(declared);
      }
    });

    it('names the member of a bad query', async (ctx) => {
      if (!has('metadata-query')) ctx.skip();
      await expect(s.search.search({ text: '', sort: [{ field: 'nope' as 'title' }], limit: 5 })).rejects.toMatchObject(
        {
          code: 'validation_failed',
          details: { field: 'sort.0.field' },
        },
      );
      await expect(
        s.search.search({ text: '', metadata: [{ key: 'a', operator: '~' as '=', value: 1 }], limit: 5 }),
      ).rejects.toMatchObject({
        details: { field: 'metadata.0.operator' },
      });
    });
  });
}
