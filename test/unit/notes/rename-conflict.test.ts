import { afterEach, describe, expect, it } from 'vitest';
import { createTestKernel, type TestKernel } from '../../support/temp.js';

let t: TestKernel | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('rename_note to a title another note has', () => {
  it('is refused with conflict naming the other note, and nothing changes', async () => {
    t = await createTestKernel({ profile: 'flint' });
    await t.vault.call('create_note', { title: 'Alpha', content: 'a' });
    await t.vault.call('create_note', { title: 'Beta', content: 'links to [[Alpha]]' });
    const beta = (await t.vault.call('get_note', { identifier: 'general/beta.md' })) as { content_hash: string };
    await expect(t.vault.call('rename_note', { identifier: 'general/beta.md', new_title: 'alpha', content_hash: beta.content_hash })).rejects.toMatchObject({
      code: 'conflict',
      details: { conflicting_id: 'general/alpha.md' },
    });
    expect(await t.vault.call('get_note', { identifier: 'general/beta.md', fields: ['title', 'content_hash'] })).toEqual({ title: 'Beta', content_hash: beta.content_hash });
    // Renaming a note to its own title with other casing is allowed.
    const renamed = (await t.vault.call('rename_note', { identifier: 'general/beta.md', new_title: 'BETA', content_hash: beta.content_hash })) as { new_title: string };
    expect(renamed.new_title).toBe('BETA');
  });
});
