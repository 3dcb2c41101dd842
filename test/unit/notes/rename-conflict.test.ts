import { afterEach, describe, expect, it } from 'vitest';
import { createTestKernel, type TestKernel } from '../../support/temp.js';

let t: TestKernel | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('rename_note to a title another note has', () => {
  it('is allowed, as in flint-note (filenames stay), with a warning naming the other note', async () => {
    t = await createTestKernel({ profile: 'flint' });
    await t.vault.call('create_note', { title: 'Alpha', content: 'a' });
    await t.vault.call('create_note', { title: 'Beta', content: 'links to [[Alpha]]' });
    const beta = (await t.vault.call('get_note', { identifier: 'general/beta.md' })) as { content_hash: string };
    const renamed = (await t.vault.call('rename_note', {
      identifier: 'general/beta.md',
      new_title: 'alpha',
      content_hash: beta.content_hash,
    })) as Record<string, unknown>;
    expect(renamed).toMatchObject({
      success: true,
      identifier: 'general/beta.md',
      filename: 'beta.md',
      filename_unchanged: true,
      new_title: 'alpha',
    });
    expect(renamed.warnings).toEqual([expect.stringContaining('general/alpha.md')]);
    // The link that named Alpha still reaches it: nothing was rewritten.
    expect(await t.vault.call('get_note', { identifier: 'general/beta.md', fields: ['title', 'content'] })).toEqual({
      title: 'alpha',
      content: 'links to [[Alpha]]',
    });
    // Renaming a note to its own title with other casing warns of nothing.
    const again = (await t.vault.call('get_note', { identifier: 'general/alpha.md' })) as { content_hash: string };
    const own = (await t.vault.call('rename_note', {
      identifier: 'general/alpha.md',
      new_title: 'ALPHA',
      content_hash: again.content_hash,
    })) as Record<string, unknown>;
    expect(own).toMatchObject({ new_title: 'ALPHA' });
  });
});
