/**
 * Letter folding in the hybrid index's embedded engine: an index written before it (the FTS5
 * table kept its own copy of the words as written, no `meta.keywords`) is re-keyed at the next
 * open from its stored passages — `lodz` finds `Łódź`, snippets mark `Bjørn` as written — with
 * no note read and no vector embedded again. Edits afterwards keep the index consistent.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fsSqliteBackend, fsSqliteOptions } from '../../../backends/fs-sqlite/index.js';
import { HybridSearchIndex } from '../../../backends/hybrid-search/hybrid-index.js';
import type { NoteStore } from '../../../kernel/backend.js';
import { silentLogger } from '../../../kernel/logger.js';
import type { Embedder } from '../../../toolkit/embedding/embedder.js';
import { hashedEmbedder } from '../../../toolkit/embedding/hashed-embedder.js';
import { removeDir, tempDir } from '../../support/temp.js';

function counting(inner: Embedder): Embedder & { texts: string[] } {
  const counter = {
    id: inner.id,
    dim: inner.dim,
    texts: [] as string[],
    embed: async (batch: readonly string[]) => (counter.texts.push(...batch), inner.embed(batch)),
  };
  return counter;
}

const ids = (page: { hits: Array<{ id: string }> }) => page.hits.map((h) => h.id);

describe('hybrid index folding upgrade', () => {
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
    await store.create({
      title: 'Trip to Łódź',
      content: 'The Straße by the river, where Bjørn sailed to Ærø.\n\n## Later\n\nBack home by train.',
      type: 'general',
    });
    await store.create({ title: 'Lodz in plain letters', content: 'Written without accents.', type: 'general' });
  });
  afterEach(async () => {
    await store.close();
    await removeDir(root);
  });

  it('re-keys an index built with words as written, from its own passages, embedding nothing', async () => {
    const first = counting(hashedEmbedder());
    let index = new HybridSearchIndex({ file, embedder: first });
    await index.reconcile(store);
    await index.finishBackground();
    const lodz = (await store.list()).find((n) => n.title === 'Trip to Łódź')!.id;
    expect(ids(await index.search({ text: 'bjorn', mode: 'keyword', limit: 5 }))).toEqual([lodz]);
    const before = index.stats();
    await index.close();

    // What an older notekernel left: the FTS5 table held its own copy of the words as written.
    const db = new Database(file);
    db.exec(`DROP TABLE chunks_fts; DROP VIEW chunk_texts; DELETE FROM meta WHERE key = 'keywords';
      CREATE VIRTUAL TABLE chunks_fts USING fts5 (title, heading, text, tokenize = 'unicode61 remove_diacritics 2');
      INSERT INTO chunks_fts (rowid, title, heading, text) SELECT c.id, n.title, c.heading, c.text FROM chunks c JOIN notes n ON n.id = c.note_id;`);
    expect(db.prepare("SELECT count(*) AS n FROM chunks_fts WHERE chunks_fts MATCH 'bjorn'").get()).toEqual({ n: 0 });
    db.close();

    const second = counting(hashedEmbedder());
    index = new HybridSearchIndex({ file, embedder: second });
    try {
      expect(index.stats()).toMatchObject({
        notes: before.notes,
        chunks: before.chunks,
        vectors: before.vectors,
        pending: 0,
      });
      const page = await index.search({ text: 'lodz AND bjorn', mode: 'keyword', limit: 5 });
      expect(ids(page)).toEqual([lodz]);
      expect(page.hits[0]?.snippet).toBe('The Straße by the river, where <mark>Bjørn</mark> sailed to Ærø.');
      expect((await index.search({ text: 'strasse aero', mode: 'keyword', limit: 5 })).hits[0]?.snippet).toBe(
        'The <mark>Straße</mark> by the river, where Bjørn sailed to <mark>Ærø</mark>.',
      );
      expect(ids(await index.search({ text: 'Łódź', mode: 'keyword', limit: 5 })).sort()).toEqual(
        (await store.list()).map((n) => n.id).sort(),
      );
      expect(await index.reconcile(store)).toEqual({ upserted: 0, removed: 0, unchanged: 2 });
      expect(second.texts).toEqual([]);

      // Later writes delete the folded words they indexed: an edit leaves no stale match.
      const note = (await store.get(lodz))!;
      await store.update(lodz, { content: 'Nothing about the river now.' }, note.contentHash);
      expect(await index.reconcile(store)).toMatchObject({ upserted: 1 });
      expect(ids(await index.search({ text: 'bjorn', mode: 'keyword', limit: 5 }))).toEqual([]);
      expect(ids(await index.search({ text: 'lodz AND river', mode: 'keyword', limit: 5 }))).toEqual([lodz]);
      await index.remove(lodz);
      expect(ids(await index.search({ text: 'lodz', mode: 'keyword', limit: 5 }))).toEqual([
        (await store.list()).find((n) => n.id !== lodz)!.id,
      ]);
    } finally {
      await index.close();
    }
    const check = new Database(file);
    // Throws SQLITE_CORRUPT_VTAB when the index and the chunks it reads disagree.
    expect(() =>
      check.prepare("INSERT INTO chunks_fts (chunks_fts, rank) VALUES ('integrity-check', 1)").run(),
    ).not.toThrow();
    check.close();
  });
});
