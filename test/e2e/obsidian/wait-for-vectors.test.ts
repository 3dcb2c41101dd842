/**
 * search_vault's `wait_for_vectors` over a real MCP stdio client, with the profile's real model
 * embedding in its worker thread: right after the vault's first indexing a search by meaning
 * answers at once and says its vectors are partial; with `wait_for_vectors` and a progressToken
 * the client sees notifications/progress rise to the total, then a complete answer.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Progress } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, connectStdio, type StdioSession } from '../../support/mcp.js';
import { paraphraseCases } from '../../support/paraphrase-vault.js';
import { removeDir, tempDir } from '../../support/temp.js';

/** Enough passages that the model is still embedding them when the first search arrives. */
const FILLER_NOTES = 240;
const WORDS =
  'ledger quarterly invoice supplier warehouse pallet forklift shipment customs tariff freight courier depot inventory audit margin'.split(
    ' ',
  );

const cases = paraphraseCases();
let sandbox: string;
let session: StdioSession;

beforeAll(async () => {
  sandbox = await tempDir('nk-e2e-obsidian-wait-');
  const vault = path.join(sandbox, 'vault');
  fs.mkdirSync(path.join(vault, 'Topics'), { recursive: true });
  fs.mkdirSync(path.join(vault, 'Logistics Log'), { recursive: true });
  for (const c of cases) fs.writeFileSync(path.join(vault, 'Topics', `${c.title}.md`), `${c.content}\n`);
  for (let i = 0; i < FILLER_NOTES; i++) {
    const words = Array.from({ length: 24 }, (_, w) => WORDS[(i * 7 + w * 3) % WORDS.length]).join(' ');
    fs.writeFileSync(path.join(vault, 'Logistics Log', `Entry ${i}.md`), `Entry ${i}: ${words}.\n`);
  }
  // This client waits up to 120 s (and longer on progress): the server's bound (40 s by default,
  // for clients with the usual 60 s timeout; wait-bound.test.ts) is raised to match.
  const config = path.join(sandbox, 'obsidian.yaml');
  fs.writeFileSync(config, 'profile: obsidian\nplugins:\n  obsidian-tools: { waitForVectorsSeconds: 240 }\n');
  session = await connectStdio(['serve', '--config', config, '--vault', vault], {
    NOTEKERNEL_CONFIG_DIR: path.join(sandbox, 'config'),
  });
}, 60_000);

afterAll(async () => {
  await session?.close();
  await removeDir(sandbox);
});

describe('search_vault wait_for_vectors', () => {
  it('answers at once with a notice, then waits for every vector with monotonic progress up to the total', async () => {
    const target = `Topics/${cases[0]!.title}.md`;
    const early = await callTool(session.client, 'search_vault', { query: cases[0]!.question, mode: 'semantic' });
    const partial = early.body as { notice?: string; vectors?: { ready: number; total: number } };
    expect(partial.notice).toMatch(/wait_for_vectors/);
    expect(partial.vectors!.ready).toBeLessThan(partial.vectors!.total);

    const seen: Progress[] = [];
    // The SDK client hands notifications to their handler a microtask later but settles a
    // response at once: a last notification read in the same chunk as the answer reaches
    // onerror as "unknown token" instead. It did arrive, before the answer: count it.
    const late: Progress[] = [];
    session.client.onerror = (err) => {
      const json = /unknown token: (\{.*\})$/.exec(err.message)?.[1];
      if (json) late.push((JSON.parse(json) as { params: Progress }).params);
    };
    const result = await session.client.callTool(
      { name: 'search_vault', arguments: { query: cases[0]!.question, mode: 'semantic', wait_for_vectors: true } },
      { onprogress: (p) => void seen.push(p), timeout: 120_000, resetTimeoutOnProgress: true },
    );
    await new Promise((resolve) => setImmediate(resolve));
    seen.push(...late);
    const body = JSON.parse((result.content as Array<{ text: string }>)[0]!.text) as {
      results: Array<{ source: string }>;
      notice?: string;
    };
    expect(result.isError).not.toBe(true);
    expect(seen.length).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < seen.length; i++) expect(seen[i]!.progress).toBeGreaterThan(seen[i - 1]!.progress);
    const last = seen.at(-1)!;
    expect(last.total).toBeGreaterThan(0);
    expect(last.progress).toBe(last.total);
    expect(last.message).toMatch(/embedding passages \d+\/\d+/);
    // Every vector is there: no notice, and the paraphrased question finds its note.
    expect(body.notice).toBeUndefined();
    expect(body.results.map((r) => r.source)).toContain(target);

    const keyword = await callTool(session.client, 'search_vault', {
      query: 'forklift',
      mode: 'keyword',
      wait_for_vectors: true,
    });
    expect((keyword.body as { results: unknown[] }).results.length).toBeGreaterThan(0);
  }, 300_000);
});
