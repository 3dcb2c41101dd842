/**
 * memory_search through the profile's keyword-search index: the answers must follow every change
 * — through a tool, and made to the file outside the server (seen by the store's watch, as a
 * served vault has it) — and never show what an entry said before; a question finds entries
 * holding any of its words, those holding all of them first.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createKernel } from '../../../app/index.js';
import { silentLogger } from '../../../kernel/logger.js';
import type { Vault } from '../../../kernel/vault.js';
import { removeDir, tempDir } from '../../support/temp.js';

interface TestKernel {
  vault: Vault;
  root: string;
  close(): Promise<void>;
}

const open: TestKernel[] = [];
afterEach(async () => {
  for (const t of open.splice(0)) await t.close();
});

type Hit = { id: string; title: string; snippet: string; score: number };

/** An agent-memory vault opened as `serve` opens it: watching its files. */
async function memory(): Promise<TestKernel> {
  const root = await tempDir('nk-memory-search-');
  const kernel = await createKernel({ profile: 'agent-memory', config: {}, logger: silentLogger() });
  const vault = await kernel.openVault(root, { watch: true });
  const t = {
    vault,
    root,
    close: async () => {
      await kernel.close();
      await removeDir(root);
    },
  };
  open.push(t);
  return t;
}

const search = async (t: TestKernel, query: string): Promise<Hit[]> =>
  (await t.vault.call('memory_search', { query })) as Hit[];

describe('memory_search', () => {
  it('answers a question: entries holding every word first, then those holding some', async () => {
    const t = await memory();
    await t.vault.call('memory_capture', { title: 'Weir survey', body: 'Twelve herons tallied at dawn.' });
    await t.vault.call('memory_capture', {
      title: 'Heron roost by the weir',
      body: 'Herons roost here in winter; the dawn count was twelve.',
    });
    await t.vault.call('memory_capture', { title: 'Unrelated', body: 'Nothing about birds.' });
    // "tallied" is in one entry only: it holds every word and comes first, though the other names the weir and herons in its title.
    const hits = await search(t, 'Were herons tallied at the weir at dawn?');
    expect(hits.map((h) => h.title)).toEqual(['Weir survey', 'Heron roost by the weir']);
    expect(hits[0]?.snippet).toMatch(/<mark>/);
  });

  it('says what is missing when the config drops the search backend', async () => {
    const root = await tempDir('nk-memory-search-');
    const kernel = await createKernel({ profile: 'agent-memory', config: { search: false }, logger: silentLogger() });
    open.push({ vault: undefined as never, root, close: async () => (await kernel.close(), await removeDir(root)) });
    const vault = await kernel.openVault(root);
    await expect(vault.call('memory_search', { query: 'herons' })).rejects.toMatchObject({
      code: 'capability_missing',
      details: { capability: 'full-text', backend: 'markdown-git' },
    });
  });
});

describe('memory_search over entries changed', () => {
  it('follows a change made through a tool and one made to the file outside the server', async () => {
    const t = await memory();
    const heron = (await t.vault.call('memory_capture', {
      title: 'Heron roost',
      body: 'Dawn count: twelve herons by the weir.',
    })) as { id: string };
    await t.vault.call('memory_capture', { title: 'Kestrel', body: 'Hovering over the verge, no herons.' });
    expect((await search(t, 'herons')).map((h) => h.title).sort()).toEqual(['Heron roost', 'Kestrel']);

    const read = (await t.vault.call('memory_read', { id: heron.id })) as { contentHash: string };
    await t.vault.call('memory_update', {
      id: heron.id,
      contentHash: read.contentHash,
      body: 'Dawn count: nine egrets by the weir.',
    });
    expect(await search(t, 'twelve')).toEqual([]);
    expect((await search(t, 'egrets')).map((h) => h.title)).toEqual(['Heron roost']);

    // Outside the server: the entry's file rewritten in place.
    const file = (await fs.readdir(t.root)).find(
      (name) => name.startsWith('kestrel') && name.endsWith('.md'),
    ) as string;
    await fs.writeFile(path.join(t.root, file), '# Kestrel\n\nHovering over the verge, now with a wren.\n');
    // The file watch picks it up: real I/O, polled.
    await vi.waitFor(async () => expect((await search(t, 'wren')).map((h) => h.title)).toEqual(['Kestrel']), {
      timeout: 5_000,
      interval: 100,
    });
    // Only the other entry's title names herons now (stemmed: `heron`, `herons`).
    expect((await search(t, 'herons')).map((h) => h.title)).toEqual(['Heron roost']);
    const [hit] = await search(t, 'wren');
    expect(hit?.snippet).toContain('<mark>wren</mark>');
  });
});
