/**
 * Letter folding in the simplenote backend's search, on a real fake Simperium: snippets mark
 * the words as written though their folded forms differ in length (ß → ss, Æ → AE). A cache
 * written before letter folding (schema 1: notes_fts held `Łódź` as written)
 * is brought to the new folding at the next open, from its own rows: `lodz` finds the note, the
 * snippet marks `Bjørn` as written, and no full sync is asked of Simperium.
 */
import fs from 'node:fs';
import path from 'node:path';
import initSqlJs from 'sql.js';
import { describe, expect, it } from 'vitest';
import { CACHE_SCHEMA_VERSION } from '../../../backends/simplenote/cache/cache-file.js';
import { startFakeSimperium } from '../../support/fake-simperium/index.js';
import { openSimplenote } from '../../support/simplenote-subject.js';
import { removeDir, tempDir } from '../../support/temp.js';

describe('simplenote search folding', () => {
  it('marks the words as written in the snippet', async () => {
    const subject = await openSimplenote();
    try {
      await subject.instance.store!.create({
        title: 'Trip to Łódź',
        content: 'The Straße by the river, where Bjørn sailed to ÆRØ and Lo\u0301dz\u0301.',
      });
      const page = await subject.instance.search!.search({ text: 'strasse bjorn aero', limit: 5 });
      expect(page.total).toBe(1);
      expect(page.hits[0]?.snippet).toBe(
        'Trip to Łódź\nThe <mark>Straße</mark> by the river, where <mark>Bjørn</mark> sailed to <mark>ÆRØ</mark> and Lo\u0301dz\u0301.',
      );
      const lodz = await subject.instance.search!.search({ text: 'Łódź', limit: 5 });
      expect(lodz.hits[0]?.snippet).toBe(
        'Trip to <mark>Łódź</mark>\nThe Straße by the river, where Bjørn sailed to ÆRØ and <mark>Lo\u0301dz\u0301</mark>.',
      );
    } finally {
      await subject.close();
    }
  });

  it('refolds an unfolded full-text index in place at open', async () => {
    const fake = await startFakeSimperium();
    const folder = await tempDir('nk-simplenote-fold-');
    try {
      const first = await openSimplenote({ fake, folder });
      await first.instance.store!.create({
        title: 'Trip to Łódź',
        content: 'Bjørn sailed to Ærø by the Straße.',
        tags: ['Kraków'],
      });
      expect((await first.instance.search!.search({ text: 'lodz', limit: 5 })).total).toBe(1);
      await first.instance.store!.close();
      const file = path.join(folder, fs.readdirSync(folder).find((f) => f.endsWith('.sqlite3'))!);

      // What an older notekernel left: schema 1, words indexed as written.
      const SQL = await initSqlJs();
      const old = new SQL.Database(fs.readFileSync(file));
      old.run('DELETE FROM notes_fts');
      old.run("INSERT INTO notes_fts (rowid, title, text, tags) SELECT rowid, title, text, 'Kraków' FROM notes");
      old.run('PRAGMA user_version = 1');
      expect(old.exec("SELECT count(*) FROM notes_fts WHERE notes_fts MATCH 'lodz'")[0]?.values[0]?.[0]).toBe(0);
      fs.writeFileSync(file, old.export());
      old.close();

      const listings = () => fake.requests.filter((r) => r.method === 'GET' && r.path.endsWith('/index')).length;
      const before = listings();
      const second = await first.reopen();
      try {
        const page = await second.search!.search({ text: 'lodz bjorn', limit: 5 });
        expect(page.total).toBe(1);
        expect(page.hits[0]?.snippet).toContain('<mark>Bjørn</mark>');
        expect((await second.search!.search({ text: 'strasse aero krakow', limit: 5 })).total).toBe(1);
        expect((await second.search!.search({ text: 'Łódź', limit: 5 })).total).toBe(1);
        expect(listings()).toBe(before); // the cursor was kept: no full sync
      } finally {
        await second.store!.close();
      }
      const saved = new SQL.Database(fs.readFileSync(file));
      expect(saved.exec('PRAGMA user_version')[0]?.values[0]?.[0]).toBe(CACHE_SCHEMA_VERSION);
      saved.close();
    } finally {
      await fake.stop();
      await removeDir(folder);
    }
  });
});
