import { afterEach, describe, expect, it } from 'vitest';
import { fsSqliteBackend, fsSqliteOptions } from '../../../backends/fs-sqlite/index.js';
import { silentLogger } from '../../../kernel/logger.js';
import { removeDir, tempDir } from '../../support/temp.js';

const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(dirs.splice(0).map(removeDir));
});

async function open(root: string) {
  const { store } = await fsSqliteBackend.create({
    folder: root,
    options: fsSqliteOptions.parse({}),
    logger: silentLogger(),
    readOnly: false,
  });
  return store!;
}

describe('index-db capability (plugin tables in the index)', () => {
  it('applies each migration once per owner, across reopenings', async () => {
    const root = await tempDir();
    dirs.push(root);
    const migrations = [
      'CREATE TABLE demo_items (id INTEGER PRIMARY KEY, name TEXT)',
      'ALTER TABLE demo_items ADD COLUMN extra TEXT',
    ];
    let store = await open(root);
    store.indexDb!.migrate('demo', migrations);
    store.indexDb!.run('INSERT INTO demo_items (name, extra) VALUES (?, ?)', ['a', 'x']);
    await store.close();
    store = await open(root);
    store.indexDb!.migrate('demo', migrations); // no "duplicate column" error: already applied
    expect(store.indexDb!.all<{ name: string; extra: string }>('SELECT name, extra FROM demo_items')).toEqual([
      { name: 'a', extra: 'x' },
    ]);
    await store.close();
  });

  it('joins plugin tables with notes in one query, and rolls a failed transaction back', async () => {
    const root = await tempDir();
    dirs.push(root);
    const store = await open(root);
    const db = store.indexDb!;
    db.migrate('demo', ['CREATE TABLE demo_marks (note_id TEXT, mark TEXT)']);
    const note = await store.create({ title: 'Marked', content: 'x' });
    db.run('INSERT INTO demo_marks VALUES (?, ?)', [note.id, 'star']);
    expect(
      db.get<{ title: string }>('SELECT n.title FROM notes n JOIN demo_marks m ON m.note_id = n.id WHERE m.mark = ?', [
        'star',
      ]),
    ).toEqual({ title: 'Marked' });
    expect(() =>
      db.transaction(() => {
        db.run('INSERT INTO demo_marks VALUES (?, ?)', [note.id, 'lost']);
        throw new Error('abort');
      }),
    ).toThrow('abort');
    expect(db.all('SELECT * FROM demo_marks WHERE mark = ?', ['lost'])).toEqual([]);
    await store.close();
  });
});
