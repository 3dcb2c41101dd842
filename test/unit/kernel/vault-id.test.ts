/** `vault_id` is checked once, by the vault, for every tool: no handler sees a call meant for another vault. */
import { afterEach, describe, expect, it } from 'vitest';
import { createTestKernel, type TestKernel } from '../../support/temp.js';

describe('vault_id without a router (the library)', () => {
  let t: TestKernel | undefined;
  afterEach(async () => t?.close());

  it('serves calls naming this vault or none, and refuses another vault for every tool', async () => {
    t = await createTestKernel();
    const own = t.vault.info.id;
    await expect(t.vault.call('list_note_types', { vault_id: own })).resolves.toBeDefined();
    await expect(t.vault.call('list_note_types', {})).resolves.toBeDefined();
    for (const tool of ['list_note_types', 'create_note', 'search_notes', 'get_note']) {
      await expect(
        t.vault.call(tool, { vault_id: 'elsewhere', identifier: 'x', title: 'x', content: 'x', type: 'general' }),
      ).rejects.toMatchObject({
        code: 'not_found',
        details: { vault_id: 'elsewhere', available: [own] },
      });
    }
    expect(await t.vault.call('search_notes', { query: 'x' })).toMatchObject({ total: 0 });
  });
});
