/**
 * The obsidian profile through the library with its search by meaning behind an
 * OpenAI-compatible endpoint (`search.options.embedder: { url, model, dimension }`), a real
 * HTTP server on 127.0.0.1: search_vault ranks by the endpoint's vectors, another model in the
 * config re-embeds the vault at the next open, and a stopped endpoint leaves search_vault
 * answering by keyword with a notice — never a failed call (decision 036).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeObsidianVault } from '../../support/obsidian-vault.js';
import { FakeEmbeddingEndpoint } from '../../support/fake-embedding-endpoint.js';
import { createTestKernel, removeDir, tempDir, type TestKernel } from '../../support/temp.js';

interface SearchAnswer {
  results: Array<{ source: string; content: string; score: number }>;
  total: number;
  notice?: string;
  vectors?: { ready: number; total: number };
}

let endpoint: FakeEmbeddingEndpoint;
let vault: string;
let t: TestKernel | undefined;

beforeEach(async () => {
  endpoint = new FakeEmbeddingEndpoint(48);
  await endpoint.start();
  vault = await tempDir('nk-obsidian-endpoint-');
  writeObsidianVault(vault);
  fs.writeFileSync(path.join(vault, 'Boats.md'), '# Boats\n\nThe harbour ferry crosses to the island twice a day.\n');
});
afterEach(async () => {
  await t?.close();
  t = undefined;
  await endpoint.stop();
  await removeDir(vault);
});

const open = (model: string) =>
  createTestKernel({
    profile: 'obsidian',
    root: vault,
    init: false,
    config: {
      search: {
        backend: 'hybrid-search',
        options: { embedder: { url: endpoint.baseUrl, model, dimension: 48, batchSize: 4 } },
      },
    },
  });
const search = async (args: Record<string, unknown>) => (await t!.vault.call('search_vault', args)) as SearchAnswer;
const passagesSent = (model: string) => endpoint.texts(model).filter((text) => text.includes('\n'));

describe('obsidian profile with an endpoint embedder', () => {
  it('searches by the endpoint’s vectors, re-embeds when the model changes, and answers by keyword when the endpoint stops', async () => {
    t = await open('bow-a');
    const semantic = await search({ query: 'ferry to the island', mode: 'semantic', wait_for_vectors: true });
    expect(semantic.results[0]?.source).toBe('Boats.md');
    expect(semantic.notice).toBeUndefined();
    const notes = passagesSent('bow-a').length;
    expect(notes).toBeGreaterThanOrEqual(8); // every note's passages, through the endpoint
    expect(endpoint.texts('bow-a')).toContain('ferry to the island');
    expect(endpoint.requests.every((r) => r.input.length <= 4)).toBe(true);
    await t.close();

    // The same model: nothing embedded again. Another model: every passage again.
    t = await open('bow-a');
    await search({ query: 'ferry to the island', mode: 'semantic', wait_for_vectors: true });
    expect(passagesSent('bow-a')).toHaveLength(notes);
    await t.close();
    t = await open('bow-b');
    const again = await search({ query: 'harbour ferry', mode: 'hybrid', wait_for_vectors: true });
    expect(again.results[0]?.source).toBe('Boats.md');
    expect(passagesSent('bow-b').sort()).toEqual(passagesSent('bow-a').sort());

    await endpoint.stop();
    // A query embedded before stays answered by meaning (its vector is remembered); a new one cannot be.
    expect((await search({ query: 'harbour ferry', mode: 'hybrid' })).notice).toBeUndefined();
    const hybrid = await search({ query: 'ferry twice', mode: 'hybrid' });
    expect(hybrid.results.map((r) => r.source)).toEqual(['Boats.md']);
    expect(hybrid.notice).toMatch(
      /^Search by meaning is unavailable \(.*could not be reached.*\): these are keyword matches only\.$/,
    );
    expect(hybrid.vectors).toBeUndefined();
    const waited = await search({ query: 'zyxquorble', mode: 'semantic', wait_for_vectors: true });
    expect(waited.results.map((r) => r.source)).toEqual(['root note.md']);
    expect(waited.notice).toMatch(/Search by meaning is unavailable/);
  });

  it('refuses an endpoint option that is not an http(s) URL, naming the key', async () => {
    await expect(
      createTestKernel({
        profile: 'obsidian',
        root: vault,
        init: false,
        config: {
          search: { backend: 'hybrid-search', options: { embedder: { url: 'file:///v1', model: 'm', dimension: 8 } } },
        },
      }),
    ).rejects.toThrow(/search\.options\.embedder\.url: an http:\/\/ or https:\/\/ URL/);
    await expect(
      createTestKernel({
        profile: 'obsidian',
        root: vault,
        init: false,
        config: { search: { backend: 'hybrid-search', options: { embedder: { url: endpoint.baseUrl, model: 'm' } } } },
      }),
    ).rejects.toThrow(/search\.options\.embedder: dimension: /);
    await expect(
      createTestKernel({
        profile: 'obsidian',
        root: vault,
        init: false,
        config: {
          search: {
            backend: 'hybrid-search',
            options: { embedder: { url: endpoint.baseUrl, model: 'm', dimension: 8, dimensions: 8 } },
          },
        },
      }),
    ).rejects.toThrow(/did you mean "dimension"/);
  });
});
