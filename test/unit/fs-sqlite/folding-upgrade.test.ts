/**
 * An index built before letter folding (schema 3: the full-text index held `Łódź` as written)
 * is refilled at open, from its own rows, so `lodz` finds the note without a rebuild by hand.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { FsSqliteSearchIndex } from '../../../backends/fs-sqlite/search.js';
import { fsSqliteBackend, fsSqliteOptions } from '../../../backends/fs-sqlite/index.js';
import { silentLogger } from '../../../kernel/logger.js';
import { removeDir, tempDir } from '../../support/temp.js';

async function open(root: string) {
  const instance = await fsSqliteBackend.create({
    folder: root,
    options: fsSqliteOptions.parse({}),
    logger: silentLogger(),
    readOnly: false,
  });
  return { instance, search: instance.search as FsSqliteSearchIndex };
}

describe('index folding upgrade', () => {
  it('refills an unfolded full-text index at open', async () => {
    const root = await tempDir('nk-fold-upgrade-');
    try {
      await fs.mkdir(path.join(root, 'general'), { recursive: true });
      await fs.writeFile(path.join(root, 'general', 'lodz.md'), '---\ntitle: Łódź\n---\n\nBjørn was here.\n');
      let { instance, search } = await open(root);
      expect((await search.search({ text: 'lodz', limit: 5 })).total).toBe(1);
      await instance.search?.close();
      await instance.store?.close();

      // What an older notekernel left: schema 3, words indexed as written, no title keys.
      const db = new Database(path.join(root, '.notekernel', 'notekernel.db'));
      db.exec(`DROP TABLE nk_title_keys; DROP TABLE notes_fts;
        CREATE VIRTUAL TABLE notes_fts USING fts5(id UNINDEXED, title, content, type, content = 'notes', content_rowid = 'rowid', tokenize = 'unicode61 remove_diacritics 2');
        INSERT INTO notes_fts(rowid, id, title, content, type) SELECT rowid, id, title, content, type FROM notes;`);
      db.pragma('user_version = 3');
      expect(db.prepare("SELECT count(*) AS n FROM notes_fts WHERE notes_fts MATCH 'lodz'").get()).toEqual({ n: 0 });
      db.close();

      ({ instance, search } = await open(root));
      const page = await search.search({ text: 'lodz bjorn', limit: 5 });
      expect(page.hits.map((h) => h.id)).toEqual(['general/lodz.md']);
      expect(page.hits[0]?.snippet).toContain('<mark>Bjørn</mark>');
      expect((await search.search({ text: 'Łódź', limit: 5 })).hits.map((h) => h.id)).toEqual(['general/lodz.md']);
      await instance.search?.close();
      await instance.store?.close();
    } finally {
      await removeDir(root);
    }
  });
});
