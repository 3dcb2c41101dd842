/**
 * The store's `files`: a note's path reads and writes its row (bytes kept as written, a
 * compare-and-swap on its hash, unreadable frontmatter refused), another host sees a raw write at
 * once, plugin-owned files stay in the local folder, and listings show types and notes.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { contentHash } from '../../../toolkit/hash.js';
import { describePg, dropSchema, freshSchema, type Host, openHost, vaultName } from './helpers.js';

describePg('postgres backend: files with the notes shown in them', () => {
  const schema = freshSchema();
  const vault = vaultName();
  let here: Host;
  let there: Host;
  beforeAll(async () => {
    here = await openHost(schema, vault);
    there = await openHost(schema, vault);
  });
  afterAll(async () => {
    await here.close();
    await there.close();
    await dropSchema(schema);
  });

  it('a raw write of a note keeps its bytes, is a compare-and-swap, and is seen by another host', async () => {
    const files = here.store.files;
    const text = '---\ntitle: Card\nstatus: open\n---\n\nBody as written.\n';
    const first = await files.writeText('cards/card-1.md', text, { expectedHash: '' });
    expect(first.contentHash).toBe(contentHash(text));
    expect(await there.store.files.readText('cards/card-1.md')).toBe(text);
    expect(await there.store.get('cards/card-1.md')).toMatchObject({
      title: 'Card',
      type: 'cards',
      content: 'Body as written.\n',
      contentHash: first.contentHash,
    });
    await expect(files.writeText('cards/card-1.md', 'x', { expectedHash: '' })).rejects.toMatchObject({
      code: 'content_hash_mismatch',
    });
    await expect(files.writeText('cards/card-1.md', '---\n: : bad\n---\nx')).rejects.toMatchObject({
      code: 'validation_failed',
    });
    expect(await there.store.files.readText('cards/card-1.md')).toBe(text);
  });

  it('plugin-owned files stay on this host; listings show types and their notes', async () => {
    await here.store.files.mkdir('cards');
    await here.store.files.writeText('cards/_description.md', '# Cards\n');
    expect(await here.store.files.readText('cards/_description.md')).toBe('# Cards\n');
    expect(await there.store.files.readText('cards/_description.md')).toBeUndefined();
    expect((await there.store.files.listDir('')).map((e) => e.name)).toContain('cards');
    expect(await here.store.files.listDir('cards')).toEqual(
      expect.arrayContaining([
        { name: '_description.md', isDirectory: false },
        { name: 'card-1.md', isDirectory: false },
      ]),
    );
    await here.store.files.remove('cards/card-1.md', {
      expectedHash: (await there.store.get('cards/card-1.md'))!.contentHash,
    });
    expect(await there.store.files.exists('cards/card-1.md')).toBe(false);
  });
});
