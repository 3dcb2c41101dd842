/**
 * The simplenote backend chosen by config alone, through the kernel and the built-in catalogue:
 * a vault opens on a fake Simperium server (its folder holds the cache), the tags plugin's tools
 * read and write through it, and a plugin that needs what Simplenote lacks is refused at
 * start-up naming both.
 */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserConfig } from '../../../app/config/user-config.js';
import { startFakeSimperium, type FakeSimperium } from '../../support/fake-simperium/index.js';
import { envFor } from '../../support/simplenote-subject.js';
import { createTestKernel } from '../../support/temp.js';

const storage = { backend: 'simplenote', options: { syncIntervalSeconds: 0 } };

describe('simplenote through the kernel', () => {
  let fake: FakeSimperium;
  const saved = { ...process.env };

  beforeAll(async () => {
    fake = await startFakeSimperium();
    // The backend reads its credentials and hosts from the environment, as it would in a server.
    Object.assign(process.env, envFor(fake));
  });
  afterAll(async () => {
    process.env = saved;
    await fake.stop();
  });

  it('opens by config (the vault folder holds the cache) and writes through to Simperium', async () => {
    const base = {
      tags: [],
      systemTags: [],
      creationDate: 1700000000,
      modificationDate: 1700000000,
      deleted: false,
      shareURL: '',
      publishURL: '',
    };
    fake.bucket().post('a1', { ...base, content: 'First\nbody', tags: ['draft', 'kestrel'] });
    fake.bucket().post('a2', { ...base, content: 'Second\nbody', tags: ['draft'] });
    const config: UserConfig = {
      storage,
      plugins: {
        vaults: false,
        'note-types': false,
        notes: false,
        'vault-config': false,
        schema: false,
        links: false,
        tags: true,
        search: false,
      },
    };
    const t = await createTestKernel({ profile: 'flint', config, init: false });
    try {
      expect(await t.vault.call('list_tags', {})).toMatchObject({
        tags: expect.arrayContaining([expect.objectContaining({ tag: 'draft', count: 2 })]),
      });
      await t.vault.call('rename_tag', { from: 'draft', to: 'final', dry_run: false });
      expect(fake.bucket().get('a1')?.data.tags).toEqual(['final', 'kestrel']);
      expect(fake.bucket().get('a2')?.data.tags).toEqual(['final']);
    } finally {
      await t.kernel.close();
    }
    expect(fs.readdirSync(t.root).filter((f) => f.startsWith('notarium-cache-'))).toHaveLength(1);
    await t.close();
  });

  it('a plugin needing what Simplenote lacks is refused at start-up, naming both', async () => {
    const config: UserConfig = {
      storage,
      plugins: {
        vaults: false,
        'note-types': true,
        notes: true,
        'vault-config': false,
        schema: false,
        links: false,
        tags: false,
        search: false,
      },
    };
    await expect(createTestKernel({ profile: 'flint', config, init: false })).rejects.toMatchObject({
      code: 'capability_missing',
      message: expect.stringMatching(/note-types.*"typed-notes".*simplenote/),
    });
  });
});
