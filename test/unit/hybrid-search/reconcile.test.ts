/**
 * The hybrid index across restarts: its vectors are kept in its file, so reopening embeds
 * nothing; reconcile re-embeds only the chunks whose text changed (counted at the embedder); a
 * different embedder drops the old vectors and reconcile re-embeds every chunk.
 */
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fsSqliteBackend, fsSqliteOptions } from '../../../backends/fs-sqlite/index.js';
import { HybridSearchIndex } from '../../../backends/hybrid-search/hybrid-index.js';
import type { NoteStore } from '../../../kernel/backend.js';
import { silentLogger } from '../../../kernel/logger.js';
import type { Embedder } from '../../../toolkit/embedding/embedder.js';
import { hashedEmbedder } from '../../../toolkit/embedding/hashed-embedder.js';
import { removeDir, tempDir } from '../../support/temp.js';

/** Counts every text the index asks to embed, and the calls (batches) they came in. */
function counting(inner: Embedder): Embedder & { texts: string[]; calls: number } {
  const counter = {
    id: inner.id,
    dim: inner.dim,
    texts: [] as string[],
    calls: 0,
    embed: async (batch: readonly string[]) => {
      counter.calls += 1;
      counter.texts.push(...batch);
      return inner.embed(batch);
    },
  };
  return counter;
}

const sections = (third: string) =>
  `## Rigging\n\nCheck the halyards before each sail.\n\n## Hull\n\nScrape the barnacles in spring.\n\n## Sails\n\n${third}`;

describe('hybrid index restart and reconcile', () => {
  let root: string;
  let store: NoteStore;
  let file: string;
  beforeEach(async () => {
    root = await tempDir();
    file = path.join(root, 'hybrid.db');
    store = (
      await fsSqliteBackend.create({
        folder: root,
        options: fsSqliteOptions.parse({}),
        logger: silentLogger(),
        readOnly: false,
      })
    ).store!;
    await store.create({ title: 'Boat upkeep', content: sections('Mend the jib where it chafes.'), type: 'general' });
    await store.create({ title: 'Bread', content: 'Feed the starter twice a day.', type: 'general' });
  });
  afterEach(async () => {
    await store.close();
    await removeDir(root);
  });

  it('re-embeds only the changed chunk after a restart, and every chunk for a new embedder', async () => {
    const first = counting(hashedEmbedder());
    const index = new HybridSearchIndex({ file, embedder: first });
    expect(await index.reconcile(store)).toEqual({ upserted: 2, removed: 0, unchanged: 0 });
    await index.finishBackground();
    expect(first.texts.length).toBe(4); // three sections and one paragraph
    expect(first.calls).toBe(1); // both notes' chunks in one batch
    await index.close();

    const boat = (await store.list()).find((n) => n.title === 'Boat upkeep')!;
    const current = (await store.get(boat.id))!;
    await store.update(boat.id, { content: sections('Replace the mainsail batten.') }, current.contentHash);

    const second = counting(hashedEmbedder());
    const reopened = new HybridSearchIndex({ file, embedder: second });
    expect(reopened.stats().chunks).toBe(4);
    expect(await reopened.reconcile(store)).toEqual({ upserted: 1, removed: 0, unchanged: 1 });
    await reopened.finishBackground();
    expect(second.texts).toEqual(['Boat upkeep\nSails\nReplace the mainsail batten.']);
    expect((await reopened.search({ text: 'batten', limit: 5, mode: 'keyword' })).hits.map((h) => h.id)).toEqual([
      boat.id,
    ]);
    expect((await reopened.search({ text: 'jib', limit: 5, mode: 'keyword' })).total).toBe(0);
    await reopened.close();

    const other = counting(hashedEmbedder(256));
    const rebuilt = new HybridSearchIndex({ file, embedder: other });
    expect(rebuilt.stats()).toMatchObject({ notes: 0, chunks: 0 });
    expect(await rebuilt.reconcile(store)).toEqual({ upserted: 2, removed: 0, unchanged: 0 });
    await rebuilt.finishBackground();
    expect(other.texts.length).toBe(4);
    await rebuilt.close();
  });

  it('a chunk shared by two notes is embedded once and outlives the removal of one', async () => {
    const embedder = counting(hashedEmbedder());
    const index = new HybridSearchIndex({ file: ':memory:', embedder });
    const a = await store.create({ title: 'Same', content: 'Identical words here.', type: 'general' });
    const b = { ...a, id: 'general/copy.md' };
    await index.upsert(a);
    await index.upsert(b);
    await index.finishBackground();
    expect(embedder.texts.length).toBe(1);
    await index.remove(a.id);
    // b still holds the vector: removing a must not drop it.
    expect((await index.search({ text: 'identical', limit: 5, mode: 'semantic' })).hits.map((h) => h.id)).toEqual([
      b.id,
    ]);
    await index.close();
  });
});
