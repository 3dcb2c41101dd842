/**
 * The flint profile on the postgres store, in process, as two hosts (two kernels, each with its
 * own folder for plugin-owned files) on one database vault: a note created, read, searched,
 * updated, renamed and moved through flint's own tools on one host is read and found on the other
 * at once, and a stale hash is refused there.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createKernel } from '../../../app/create-kernel.js';
import { silentLogger } from '../../../kernel/logger.js';
import type { Vault } from '../../../kernel/vault.js';
import { removeDir, tempDir } from '../../support/temp.js';
import { describePg, dropSchema, freshSchema, PG_URL, vaultName } from './helpers.js';

describePg('flint on the postgres store (in process, two hosts)', () => {
  const schema = freshSchema();
  const vault = vaultName();
  const kernels: Array<Awaited<ReturnType<typeof createKernel>>> = [];
  const roots: string[] = [];
  let a: Vault;
  let b: Vault;

  const host = async (): Promise<Vault> => {
    const kernel = await createKernel({
      profile: 'flint',
      config: { storage: { backend: 'postgres', options: { url: PG_URL, schema, vault } } },
      logger: silentLogger(),
    });
    kernels.push(kernel);
    const root = await tempDir('nk-pg-flint-');
    roots.push(root);
    return kernel.openVault(root);
  };

  beforeAll(async () => {
    a = await host();
    b = await host();
  });
  afterAll(async () => {
    for (const kernel of kernels) await kernel.close();
    for (const root of roots) await removeDir(root);
    await dropSchema(schema);
  });

  type Body = Record<string, unknown>;

  it('create, get, search and update on one host are seen by the other at once', async () => {
    const created = (await a.call('create_note', { title: 'Kestrel plan', content: 'Launch budget.' })) as Body;
    expect(created.id).toBe('general/kestrel-plan.md');
    const got = (await b.call('get_note', { identifier: 'general/kestrel-plan.md' })) as Body;
    expect(got).toMatchObject({ title: 'Kestrel plan', content: 'Launch budget.' });
    const found = (await b.call('search_notes', { query: 'kestrel' })) as { results: Body[] };
    expect(found.results.map((r) => r.id)).toEqual(['general/kestrel-plan.md']);
    const updated = (await a.call('update_note', {
      identifier: 'general/kestrel-plan.md',
      content: 'Revised budget.',
      content_hash: got.content_hash,
    })) as Body;
    expect((await b.call('get_note', { identifier: 'general/kestrel-plan.md' })) as Body).toMatchObject({
      content: 'Revised budget.',
      content_hash: updated.content_hash,
    });
    await expect(
      b.call('update_note', { identifier: 'general/kestrel-plan.md', content: 'lost', content_hash: got.content_hash }),
    ).rejects.toMatchObject({ code: 'content_hash_mismatch' });
  });

  it('a rename rewrites the links that point at the note, and the other host sees both', async () => {
    const target = (await a.call('create_note', { title: 'Heron', content: 'Birds.' })) as Body;
    await a.call('create_note', { title: 'Linker', content: 'See [[Heron]] for more.' });
    const renamed = (await a.call('rename_note', {
      identifier: target.id,
      new_title: 'Grey heron',
      content_hash: ((await a.call('get_note', { identifier: target.id })) as Body).content_hash,
    })) as Body;
    expect(renamed).toBeDefined();
    const linker = (await b.call('get_note', { identifier: 'general/linker.md' })) as Body;
    expect(linker.content).toContain('[[Grey heron]]');
  });
});
