import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SCHEMA_VERSION } from '../../../backends/fs-sqlite/schema.js';
import { fileStateHash, xor53 } from '../../../toolkit/files/file-digest.js';
import { tempDir } from '../../support/temp.js';
import { note, useVaults, writeAt } from './helpers.js';

const { openVault, vaultDir, track } = useVaults();

const THREE = {
  'general/a.md': note('A', 'alpha\n'),
  'general/b.md': note('B', 'bravo\n'),
  'projects/c.md': note('C', 'charlie\n'),
};
const ids = (list: Array<{ id: string }>) => list.map((n) => n.id).sort();

describe('refresh skips files that are not UTF-8 text', () => {
  const BINARY = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]);
  const LATIN1 = Buffer.from('---\ntitle: Caf\xe9\n---\n\nna\xefve\n', 'latin1');

  it('reports them as skipped, lists the rest, and reads them as a validation error, not a crash', async () => {
    const root = await vaultDir({ ...THREE, 'general/image.md': BINARY, 'general/latin1.md': LATIN1 });
    const { store } = await openVault(root);
    expect(ids(await store.list())).toEqual(['general/a.md', 'general/b.md', 'projects/c.md']);
    const report = await store.refresh!();
    expect(report.scanned).toBe(5);
    expect(report.skipped).toEqual(
      expect.arrayContaining([
        { path: 'general/image.md', reason: expect.stringMatching(/binary/) },
        { path: 'general/latin1.md', reason: expect.stringMatching(/UTF-8/) },
      ]),
    );
    expect(report.skipped).toHaveLength(2);
    expect(await store.count()).toBe(3);
    await expect(store.get('general/image.md')).rejects.toMatchObject({ code: 'validation_failed' });
    await expect(store.update('general/latin1.md', { content: 'x' }, 'sha256:00')).rejects.toMatchObject({
      code: 'validation_failed',
    });
    expect((await store.get('general/a.md'))?.content).toBe('alpha\n');
  });

  it('drops a note from the index when it turns binary on disk', async () => {
    const root = await vaultDir(THREE);
    const { store } = await openVault(root);
    await fs.writeFile(path.join(root, 'general/b.md'), BINARY);
    const report = await store.refresh!();
    expect(report.skipped).toEqual([{ path: 'general/b.md', reason: expect.stringMatching(/binary/) }]);
    expect(ids(await store.list())).toEqual(['general/a.md', 'projects/c.md']);
  });
});

describe('incremental refresh', () => {
  it('re-reads only files whose size or mtime changed', async () => {
    const root = await vaultDir(THREE);
    const { store } = await openVault(root);
    // The first refresh is the opening one (scheduled behind the open, decision 013): it indexes all three.
    expect(await store.refresh!()).toMatchObject({ scanned: 3, indexed: 3, removed: 0, skipped: [] });
    expect(await store.refresh!()).toMatchObject({ scanned: 3, indexed: 0, removed: 0, skipped: [] });

    await fs.appendFile(path.join(root, 'general/a.md'), 'more\n');
    expect(await store.refresh!()).toMatchObject({ scanned: 3, indexed: 1, removed: 0 });

    const later = new Date(Date.now() + 60_000);
    await fs.utimes(path.join(root, 'general/b.md'), later, later);
    expect(await store.refresh!()).toMatchObject({ scanned: 3, indexed: 1, removed: 0 });

    await writeAt(root, 'projects/d.md', note('D', 'delta\n'));
    await fs.rm(path.join(root, 'projects/c.md'));
    expect(await store.refresh!()).toMatchObject({ scanned: 3, indexed: 1, removed: 1 });
    expect(await store.refresh!()).toMatchObject({ scanned: 3, indexed: 0, removed: 0 });
    expect(ids(await store.list())).toEqual(['general/a.md', 'general/b.md', 'projects/d.md']);
    expect((await store.list()).find((n) => n.id === 'projects/d.md')?.title).toBe('D');
  });

  it('notes written through the store need no re-read', async () => {
    const root = await vaultDir();
    const { store } = await openVault(root);
    const a = await store.create({ title: 'Made here', content: '1' });
    await store.update(a.id, { content: '2' }, a.contentHash);
    await store
      .create({ title: 'Moved', content: 'm', type: 'inbox' })
      .then((n) => store.move!(n.id, 'archive', n.contentHash));
    expect(await store.refresh!()).toMatchObject({ scanned: 2, indexed: 0, removed: 0 });
  });

  it('a reopened vault starts from the saved index', async () => {
    const root = await vaultDir(THREE);
    const vault = await openVault(root);
    const before = await vault.store.list({ orderBy: 'title', direction: 'asc' });
    const again = await vault.reopen();
    expect(await again.store.refresh!()).toMatchObject({ scanned: 3, indexed: 0, removed: 0 });
    expect(await again.store.list({ orderBy: 'title', direction: 'asc' })).toEqual(before);
  });

  it('ignores stray temp files, type files and the metadata folder', async () => {
    const root = await vaultDir({
      ...THREE,
      'general/.nk-tmp-99-abcdef': 'half written',
      'general/_description.md': '# General',
      '.notekernel/stray.md': note('X', 'x'),
    });
    const { store } = await openVault(root);
    expect(await store.refresh!()).toMatchObject({ scanned: 3, skipped: [] });
    expect(await store.count()).toBe(3);
    expect(await store.listTypes!()).toEqual(['general', 'projects']);
  });
});

describe('the index is a cache, rebuilt when it cannot be used', () => {
  const dbFile = (root: string) => path.join(root, '.notekernel', 'notekernel.db');

  async function closedVault(): Promise<string> {
    const root = await vaultDir(THREE);
    const vault = await openVault(root);
    await vault.store.create({ title: 'Made by the store', content: 'x', metadata: { k: 'v' } });
    await vault.close();
    return root;
  }

  async function expectAllListed(root: string): Promise<void> {
    const { store } = await openVault(root);
    expect(ids(await store.list())).toEqual([
      'general/a.md',
      'general/b.md',
      'general/made-by-the-store.md',
      'projects/c.md',
    ]);
    expect(await store.count({ type: 'general' })).toBe(3);
    expect((await store.list()).find((n) => n.id === 'general/a.md')?.title).toBe('A');
  }

  it('when the db file is deleted', async () => {
    const root = await closedVault();
    for (const suffix of ['', '-wal', '-shm']) await fs.rm(dbFile(root) + suffix, { force: true });
    await expectAllListed(root);
    await expect(fs.access(dbFile(root))).resolves.toBeUndefined();
  });

  it('when the db file is replaced by garbage bytes (moved aside, not lost)', async () => {
    const root = await closedVault();
    const garbage = Buffer.alloc(8192, 0);
    for (let i = 0; i < garbage.length; i++) garbage[i] = (i * 7919 + 13) % 251;
    await fs.writeFile(dbFile(root), garbage);
    await expectAllListed(root);
    const aside = (await fs.readdir(path.join(root, '.notekernel'))).filter((n) =>
      n.startsWith('notekernel.db.corrupt-'),
    );
    expect(aside.length).toBeGreaterThanOrEqual(1);
    expect(await fs.readFile(path.join(root, '.notekernel', aside.find((n) => !/-(wal|shm)$/.test(n))!))).toEqual(
      garbage,
    );
  });

  it('when the db is truncated to zero bytes', async () => {
    const root = await closedVault();
    await fs.writeFile(dbFile(root), '');
    await expectAllListed(root);
  });

  it('when the db comes from a newer schema', async () => {
    const root = await closedVault();
    const db = new Database(dbFile(root));
    db.pragma(`user_version = ${SCHEMA_VERSION + 5}`);
    db.close();
    await expectAllListed(root);
    const reopened = new Database(dbFile(root), { readonly: true });
    try {
      expect(reopened.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    } finally {
      reopened.close();
    }
  });

  it('when the vault was copied elsewhere with its index (paths follow the new folder)', async () => {
    const root = await closedVault();
    const copy = await tempDir();
    track(copy);
    await fs.cp(root, copy, { recursive: true, preserveTimestamps: true });
    const { store } = await openVault(copy);
    const listed = await store.list();
    expect(listed).toHaveLength(4);
    for (const summary of listed) expect(summary.path!.startsWith(root), summary.path).toBe(false);
    expect((await store.get('general/a.md'))?.path?.startsWith(root)).toBe(false);
    // The copied index is rebuilt, not kept aside as if it were damaged.
    expect((await fs.readdir(path.join(copy, '.notekernel'))).filter((n) => n.includes('.corrupt-'))).toEqual([]);
  });
});

describe('the files digest: an unchanged vault is recognised without reading every row', () => {
  const dbFile = (root: string) => path.join(root, '.notekernel', 'notekernel.db');

  /** The digest recomputed from the rows, and the one the index keeps. */
  function digests(root: string): { fromRows: number; stored: number } {
    const db = new Database(dbFile(root), { readonly: true });
    try {
      const rows = db.prepare('SELECT id, size, mtime_ms FROM notes').raw().all() as Array<[string, number, number]>;
      const stored = Number(
        (db.prepare("SELECT value FROM nk_meta WHERE key = 'files_digest'").pluck().get() as string | undefined) ??
          Number.NaN,
      );
      return { fromRows: rows.reduce((d, [id, size, mtime]) => xor53(d, fileStateHash(id, size, mtime)), 0), stored };
    } finally {
      db.close();
    }
  }

  it('is kept equal to the rows through creates, updates, moves and deletes', async () => {
    const root = await vaultDir(THREE);
    const { store } = await openVault(root);
    const created = await store.create({ title: 'New', type: 'general', content: 'new\n' });
    const b = await store.get('general/b.md');
    await store.update('general/b.md', { content: 'changed\n' }, b!.contentHash);
    const c = await store.get('projects/c.md');
    await store.move!('projects/c.md', 'general', c!.contentHash);
    await store.delete(created.id);
    const { fromRows, stored } = digests(root);
    expect(stored).toBe(fromRows);
  });

  it('still finds a same-size edit with a new mtime made while the vault was closed', async () => {
    const root = await vaultDir(THREE);
    const first = await openVault(root);
    await first.store.count(); // waits for the index: a close would stop it half-way
    await first.close();
    await fs.writeFile(path.join(root, 'general/a.md'), note('A', 'ALPHA\n'));
    const later = new Date(Date.now() + 60_000);
    await fs.utimes(path.join(root, 'general/a.md'), later, later);
    const { store } = await openVault(root);
    await store.count();
    // Read from the index itself: a get would re-index the file on its own.
    const db = new Database(dbFile(root), { readonly: true });
    expect(db.prepare("SELECT content FROM notes WHERE id = 'general/a.md'").pluck().get()).toBe('ALPHA\n');
    db.close();
    expect(await store.refresh!()).toMatchObject({ scanned: 3, indexed: 0 });
  });

  it('heals a digest that disagrees with the rows, so later starts take the fast path again', async () => {
    const root = await vaultDir(THREE);
    const first = await openVault(root);
    await first.store.count();
    await first.close();
    const db = new Database(dbFile(root));
    expect(db.prepare("UPDATE nk_meta SET value = '12345' WHERE key = 'files_digest'").run().changes).toBe(1);
    db.close();
    const { store } = await openVault(root);
    expect(await store.refresh!()).toMatchObject({ scanned: 3, indexed: 0, removed: 0 });
    const { fromRows, stored } = digests(root);
    expect(stored).toBe(fromRows);
    expect(stored).not.toBe(12345);
  });
});

describe('WAL checkpoints wait for a pause in writes', () => {
  afterEach(() => void vi.useRealTimers());

  it('copies the WAL into the database file once writes stop, not inside the write', async () => {
    // The idle-time checkpoint is a timer (CHECKPOINT_IDLE_MS, 500 ms): on the fake clock.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const root = await vaultDir(THREE);
    const { store } = await openVault(root);
    await store.count(); // the open's refresh has written its rows
    const dbFile = path.join(root, '.notekernel', 'notekernel.db');
    const bytes = async () =>
      createHash('sha256')
        .update(await fs.readFile(dbFile))
        .digest('hex');
    await vi.advanceTimersByTimeAsync(500); // the open's own writes checkpointed
    const before = await bytes();
    await store.create({ title: 'Fresh', type: 'general', content: 'fresh\n' });
    expect(await bytes()).toBe(before); // the write went to the WAL only
    await vi.advanceTimersByTimeAsync(499);
    expect(await bytes()).toBe(before); // writes have not paused long enough yet
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await bytes()).not.toBe(before);
  });
});
