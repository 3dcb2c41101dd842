/**
 * fs-sqlite told it is not the vault's search index (BackendContext.servesSearch false, as beside
 * obsidian's hybrid-search) keeps no full-text rows and opens no search index; opened as the
 * search index again, it refills them from its note rows and finds the notes written meanwhile.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { fsSqliteBackend, fsSqliteOptions } from '../../../backends/fs-sqlite/index.js';
import { silentLogger } from '../../../kernel/logger.js';
import { removeDir, tempDir } from '../../support/temp.js';

const options = fsSqliteOptions.parse({});
const roots: string[] = [];
afterEach(async () => {
  await Promise.all(roots.splice(0).map(removeDir));
});

async function open(root: string, servesSearch: boolean) {
  const instance = await fsSqliteBackend.create({
    folder: root,
    options,
    logger: silentLogger(),
    readOnly: false,
    servesSearch,
  });
  await instance.store!.refresh!();
  return instance;
}

/** Notes the full-text index finds for a word, read from the file as it stands. */
function fullTextHits(root: string, word: string): number {
  const db = new Database(path.join(root, options.metaDir, options.indexFile), { readonly: true });
  try {
    return (db.prepare('SELECT count(*) AS n FROM notes_fts WHERE notes_fts MATCH ?').get(word) as { n: number }).n;
  } finally {
    db.close();
  }
}

describe('fs-sqlite and its search role', () => {
  it('keeps no full-text rows when another backend serves the searches, and refills them when it serves them again', async () => {
    const root = await tempDir();
    roots.push(root);
    const served = await open(root, true);
    await served.store!.create({ title: 'Kestrel', content: 'first written while serving search' });
    await served.store!.close();
    expect(fullTextHits(root, 'kestrel')).toBe(1);

    const beside = await open(root, false);
    expect(beside.search).toBeUndefined();
    const osprey = await beside.store!.create({ title: 'Osprey', content: 'written beside a search backend' });
    await beside.store!.update(osprey.id, { content: 'changed beside a search backend' }, osprey.contentHash);
    expect((await beside.store!.list()).map((n) => n.title).sort()).toEqual(['Kestrel', 'Osprey']);
    await beside.store!.close();
    expect(fullTextHits(root, 'kestrel')).toBe(0);
    expect(fullTextHits(root, 'osprey')).toBe(0);

    const again = await open(root, true);
    try {
      const page = await again.search!.search({ text: 'osprey', limit: 5 });
      expect(page.hits.map((h) => h.id)).toEqual([osprey.id]);
      expect((await again.search!.search({ text: 'changed', limit: 5 })).total).toBe(1);
      expect((await again.search!.search({ text: 'kestrel', limit: 5 })).total).toBe(1);
    } finally {
      await again.search!.close();
      await again.store!.close();
    }
  });
});
