/** The simplenote cache file: persisted atomically, rebuilt (never a crash) when unusable; the note mapping. */
import fs from 'node:fs';
import path from 'node:path';
import initSqlJs from 'sql.js';
import { describe, expect, it, vi } from 'vitest';
import { CACHE_SCHEMA_VERSION } from '../../../backends/simplenote/cache/cache-file.js';
import { cacheFile, intervalFromEnv } from '../../../backends/simplenote/index.js';
import { joinText, noteOf, splitText } from '../../../backends/simplenote/note-object.js';
import { startFakeSimperium } from '../../support/fake-simperium/index.js';
import { openSimplenote } from '../../support/simplenote-subject.js';
import { removeDir, tempDir } from '../../support/temp.js';

const NOTE = {
  tags: ['a'],
  systemTags: ['pinned'],
  creationDate: 1604677681.022651,
  modificationDate: 1604677682,
  deleted: 1,
  shareURL: '',
  publishURL: '',
};

async function cacheOf(folder: string): Promise<string> {
  // Written in the background after the first sync: real I/O, polled.
  const found = await vi.waitFor(
    () => fs.readdirSync(folder).find((f) => f.endsWith('.sqlite3')) ?? Promise.reject(new Error('no cache file yet')),
    { timeout: 3000, interval: 20 },
  );
  return path.join(folder, found);
}

describe('simplenote cache', () => {
  it('is saved shortly after a write and at close, leaving no temp file', async () => {
    const subject = await openSimplenote();
    await subject.instance.store!.create({ title: 'Saved', content: 'x' });
    const file = await cacheOf(subject.folder);
    const SQL = await initSqlJs();
    const titles = () => {
      const db = new SQL.Database(fs.readFileSync(file));
      const rows = db.exec('SELECT title FROM notes')[0]?.values ?? [];
      db.close();
      return rows;
    };
    // Saved in the background 10 ms (persistDelayMs) after the write: poll rather than guess.
    await vi.waitFor(() => expect(titles()).toEqual([['Saved']]), { timeout: 3000, interval: 20 });
    const db = new SQL.Database(fs.readFileSync(file));
    expect(db.exec('PRAGMA user_version')[0]?.values[0]?.[0]).toBe(CACHE_SCHEMA_VERSION);
    db.close();
    await subject.instance.store!.close();
    expect(await subject.outside.leftovers()).toEqual([]);
    await subject.close();
  });

  for (const [label, spoil] of [
    ['corrupt', (file: string) => fs.writeFileSync(file, 'this is not a database')],
    ['truncated', (file: string) => fs.truncateSync(file, 1000)],
    ['newer', (file: string) => void rewriteVersion(file, 99)],
    ['older', (file: string) => void rewriteVersion(file, 0)],
  ] as const) {
    it(`a ${label} cache file is rebuilt by a full sync, never a crash`, async () => {
      const fake = await startFakeSimperium();
      const folder = await tempDir('nk-simplenote-');
      const first = await openSimplenote({ fake, folder });
      await first.instance.store!.create({ title: 'Survives', content: 'in Simperium' });
      await first.close();
      await spoil(await cacheOf(folder));
      const second = await openSimplenote({ fake, folder });
      expect((await second.instance.store!.list()).map((n) => n.title)).toEqual(['Survives']);
      await second.close();
      await fake.stop();
      await removeDir(folder);
    });
  }

  it('lives in the vault folder, else NOTARIUM_CACHE_DIR, else XDG_CACHE_HOME/notekernel/simplenote', () => {
    const config = { username: 'u@example.com', apiUrl: 'https://api.simperium.com', appId: 'chalk-bump-f49' };
    expect(path.dirname(cacheFile('/vault', {}, config))).toBe('/vault');
    expect(path.dirname(cacheFile(undefined, { NOTARIUM_CACHE_DIR: '/c', XDG_CACHE_HOME: '/x' }, config))).toBe('/c');
    expect(path.dirname(cacheFile(undefined, { XDG_CACHE_HOME: '/x' }, config))).toBe('/x/notekernel/simplenote');
    expect(cacheFile('/v', {}, config)).not.toBe(cacheFile('/v', {}, { ...config, username: 'other@example.com' }));
    expect(cacheFile('/v', {}, config)).not.toContain('u@example.com');
  });

  it('reads SYNC_INTERVAL_SECONDS as seed 003 does: default 300, at least 60, 0 for none', () => {
    expect([undefined, '10', '0', '600', 'soon'].map(intervalFromEnv)).toEqual([300, 60, 0, 600, 300]);
  });
});

describe('simplenote note mapping', () => {
  it('takes the title from the first line and dates from epoch seconds (floats, milliseconds tolerated)', () => {
    const note = noteOf('k', 3, { ...NOTE, content: 'Title line\nbody\n' });
    expect(note).toMatchObject({
      id: 'k',
      title: 'Title line',
      content: 'body\n',
      tags: ['a'],
      created: '2020-11-06T15:48:01.023Z',
      updated: '2020-11-06T15:48:02.000Z',
    });
    expect(note.metadata).toEqual({ systemTags: ['pinned'], deleted: true, version: 3, shareURL: '', publishURL: '' });
    expect(noteOf('k', 1, { ...NOTE, content: 'x', modificationDate: 1604677682000 }).updated).toBe(
      '2020-11-06T15:48:02.000Z',
    );
    for (const [title, content] of [
      ['t', ''],
      ['t', '\n'],
      ['', 'x'],
      ['t', 'a\nb'],
    ])
      expect(splitText(joinText(title!, content!))).toEqual({ title, content });
  });
});

async function rewriteVersion(file: string, version: number): Promise<void> {
  const SQL = await initSqlJs();
  const db = new SQL.Database(fs.readFileSync(file));
  db.run(`PRAGMA user_version = ${version}`);
  fs.writeFileSync(file, db.export());
  db.close();
}
