/**
 * hybrid-search as a vault's search backend through the kernel: fs-sqlite keeps the notes,
 * `search: { backend: hybrid-search }` serves search_notes, the `vectors` capability is offered,
 * and the index file lives in the vault's metadata folder. The hashed embedder stands in for the
 * model (the real one is exercised by paraphrase.test.ts).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestKernel, type TestKernel } from '../../support/temp.js';

const config = { search: { backend: 'hybrid-search', options: { embedder: 'hashed' } } };
const titles = async (t: TestKernel, args: Record<string, unknown>) =>
  ((await t.vault.call('search_notes', args)) as { results: Array<{ title: string; snippet?: string }> }).results;

describe('fs-sqlite with search: { backend: hybrid-search }', () => {
  const open: TestKernel[] = [];
  afterEach(async () => {
    for (const t of open.splice(0)) await t.close();
  });

  it('opens through the kernel and answers search_notes from the hybrid index', async () => {
    const t = await createTestKernel({ config });
    open.push(t);
    expect(t.kernel.plan.providers.get('full-text')).toBe('hybrid-search');
    expect(t.kernel.plan.providers.get('vectors')).toBe('hybrid-search');
    expect(t.kernel.plan.capabilities.has('sql')).toBe(false);

    await t.vault.call('create_note', {
      type: 'general',
      title: 'Osprey sighting',
      content: 'A fish hawk circled the reservoir at dawn.',
    });
    await t.vault.call('create_note', {
      type: 'general',
      title: 'Tax return',
      content: 'Receipts for the accountant.',
    });
    const hits = await titles(t, { query: 'reservoir hawk' });
    expect(hits.map((h) => h.title)).toEqual(['Osprey sighting']);
    expect(JSON.stringify(hits)).toContain('<mark>');
    await expect(fs.stat(path.join(t.root, '.notekernel', 'hybrid.db'))).resolves.toBeDefined();
  });

  it('catches up at open with notes written before it was configured', async () => {
    const first = await createTestKernel({});
    await first.vault.call('create_note', {
      type: 'general',
      title: 'Heron roost',
      content: 'Dawn count: twelve herons.',
    });
    await first.kernel.close();
    const second = await createTestKernel({ root: first.root, init: false, config });
    try {
      expect((await titles(second, { query: 'herons' })).map((h) => h.title)).toEqual(['Heron roost']);
    } finally {
      await second.close();
      await fs.rm(first.root, { recursive: true, force: true });
    }
  });
});
