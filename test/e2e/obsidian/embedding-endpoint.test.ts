/**
 * The built CLI served over stdio to the MCP SDK's client, the obsidian profile's search by
 * meaning behind an OpenAI-compatible endpoint given in the config file (a real HTTP server on
 * 127.0.0.1, its key from an environment variable): search_vault ranks by the endpoint's
 * vectors, the key reaches the endpoint and never stderr, and a stopped endpoint leaves
 * search_vault answering by keyword with a notice, not an error (decision 036).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeEmbeddingEndpoint } from '../../support/fake-embedding-endpoint.js';
import { callTool, connectStdio, type StdioSession } from '../../support/mcp.js';
import { writeObsidianVault } from '../../support/obsidian-vault.js';
import { removeDir, tempDir } from '../../support/temp.js';

const KEY = 'sk-e2e-embed-5b7c2d-never-logged';
let sandbox: string;
let endpoint: FakeEmbeddingEndpoint;
let session: StdioSession;

beforeAll(async () => {
  sandbox = await tempDir('nk-e2e-embed-endpoint-');
  const vault = path.join(sandbox, 'vault');
  fs.mkdirSync(vault);
  writeObsidianVault(vault);
  fs.writeFileSync(path.join(vault, 'Boats.md'), '# Boats\n\nThe harbour ferry crosses to the island twice a day.\n');
  endpoint = new FakeEmbeddingEndpoint(48);
  endpoint.requiredKey = KEY;
  await endpoint.start();
  const config = path.join(sandbox, 'obsidian.yaml');
  fs.writeFileSync(
    config,
    `profile: obsidian\nsearch:\n  backend: hybrid-search\n  options:\n    embedder: { url: "${endpoint.baseUrl}", model: bow-e2e, dimension: 48, apiKeyEnv: NK_E2E_EMBED_KEY }\n`,
  );
  session = await connectStdio(['serve', '--config', config, '--vault', vault], {
    NOTEKERNEL_CONFIG_DIR: path.join(sandbox, 'config'),
    NK_E2E_EMBED_KEY: KEY,
    NOTEKERNEL_LOG_LEVEL: 'debug',
  });
}, 60_000);

afterAll(async () => {
  await session?.close();
  await endpoint?.stop();
  await removeDir(sandbox);
});

const searchVault = async (args: Record<string, unknown>) => {
  const answer = await callTool(session.client, 'search_vault', args);
  expect(answer.isError, JSON.stringify(answer.body)).toBe(false);
  return answer.body as { results: Array<{ source: string }>; notice?: string };
};

describe('obsidian over stdio with an endpoint embedder', () => {
  it('searches by the endpoint’s vectors, then by keyword with a notice once it stops', async () => {
    const semantic = await searchVault({ query: 'ferry to the island', mode: 'semantic', wait_for_vectors: true });
    expect(semantic.results[0]?.source).toBe('Boats.md');
    expect(semantic.notice).toBeUndefined();
    expect(endpoint.texts('bow-e2e')).toContain('ferry to the island');
    expect(endpoint.requests.every((r) => r.authorization === `Bearer ${KEY}`)).toBe(true);

    await endpoint.stop();
    const fallback = await searchVault({ query: 'harbour island', mode: 'hybrid' });
    expect(fallback.results.map((r) => r.source)).toEqual(['Boats.md']);
    expect(fallback.notice).toMatch(
      /^Search by meaning is unavailable \(.*could not be reached.*\): these are keyword matches only\.$/,
    );
    expect(session.stderr()).not.toContain(KEY);
  });
});
