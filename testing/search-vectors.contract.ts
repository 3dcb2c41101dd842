/**
 * The SearchIndex contract's vector cases, for an index that declares `vectors`: `semantic` and
 * `hybrid` find a note by what it says, honour the type filter, exclusions and paging as keyword
 * search does, and follow upserts and removals. Each case first lets the index finish the work it
 * does behind its answers (`finishBackground`: passages embedded), so the page is complete.
 * Run inside describeSearchIndexContract on its notes (the kestrel, heron and café notes).
 */
import { expect, it, type TestContext } from 'vitest';
import type { SearchMode, SearchQuery } from '../kernel/backend.js';
import { declares } from './contract-support.js';
import type { SearchSubject } from './search-index.contract.js';

const VECTOR_MODES: readonly SearchMode[] = ['semantic', 'hybrid'];

export function describeVectorCases(subject: () => SearchSubject): void {
  const s = () => subject();
  /** Skips the case for an index without `vectors`, else waits for its background work. */
  const ready = async (ctx: TestContext) => {
    if (!declares(s().capabilities, 'vectors')) ctx.skip();
    await s().search.finishBackground?.();
  };
  const ids = async (query: Partial<SearchQuery> & { mode: SearchMode }) =>
    (await s().search.search({ text: '', limit: 50, ...query })).hits.map((h) => h.id);
  const idOf = (title: string) =>
    s()
      .store.list({ limit: 100 })
      .then((all) => all.find((n) => n.title === title)?.id);

  it('semantic and hybrid find the note that says what is asked, first, with a marked snippet where words match', async (ctx) => {
    await ready(ctx);
    const kestrel = await idOf('Kestrel launch plan');
    for (const mode of VECTOR_MODES) {
      const page = await s().search.search({ text: 'kestrel launch budget', limit: 10, mode });
      expect(page.hits[0]?.id, mode).toBe(kestrel);
      expect(page.total, mode).toBeGreaterThanOrEqual(page.hits.length);
      expect(
        page.hits.every((h) => typeof h.score === 'number' && typeof h.snippet === 'string'),
        mode,
      ).toBe(true);
      // Every vector is built: the page says nothing about vectors still to come.
      if (page.vectors) expect(page.vectors.ready, mode).toBe(page.vectors.total);
    }
    const hybrid = await s().search.search({ text: 'kestrel launch budget', limit: 10, mode: 'hybrid' });
    expect(hybrid.hits[0]?.snippet).toContain('<mark>');
  });

  it('the type filter and exclusions hold in semantic and hybrid modes', async (ctx) => {
    await ready(ctx);
    const [kestrel, heron] = [await idOf('Kestrel launch plan'), await idOf('Heron archive')];
    for (const mode of VECTOR_MODES) {
      expect(await ids({ text: 'kestrel', type: 'journal', mode }), mode).toEqual([]);
      expect(await ids({ text: 'kestrel -launch', mode }), mode).not.toContain(kestrel);
      if (s().storeKeeps?.types !== false) {
        const projects = await ids({ text: 'kestrel', type: 'projects', mode });
        expect(projects, mode).toContain(kestrel);
        expect(
          projects.every((id) => id === kestrel || id === heron),
          mode,
        ).toBe(true);
      }
    }
  });

  it('pages with limit and offset in semantic and hybrid modes', async (ctx) => {
    await ready(ctx);
    for (const mode of VECTOR_MODES) {
      const all = await ids({ text: 'kestrel notes', mode });
      expect(all.length, mode).toBeGreaterThanOrEqual(2);
      const second = await s().search.search({ text: 'kestrel notes', limit: 1, offset: 1, mode });
      expect(
        second.hits.map((h) => h.id),
        mode,
      ).toEqual([all[1]]);
      expect(second.total, mode).toBe(all.length);
    }
  });

  it('semantic and hybrid follow upserts and removals', async (ctx) => {
    await ready(ctx);
    const note = await s().store.create({
      title: 'Osprey fishing grounds',
      content: 'The osprey dives for fish over the estuary.',
    });
    await s().search.upsert(note);
    await s().search.finishBackground?.();
    for (const mode of VECTOR_MODES) expect((await ids({ text: 'osprey estuary fish', mode }))[0], mode).toBe(note.id);
    const changed = await s().store.update(
      note.id,
      { content: 'Nesting platforms by the reservoir.' },
      note.contentHash,
    );
    await s().search.upsert(changed);
    await s().search.finishBackground?.();
    for (const mode of VECTOR_MODES) expect(await ids({ text: 'estuary', mode }), mode).not.toContain(note.id);
    await s().store.delete(note.id);
    await s().search.remove(note.id);
    for (const mode of VECTOR_MODES) expect(await ids({ text: 'osprey fishing', mode }), mode).not.toContain(note.id);
  });
}
