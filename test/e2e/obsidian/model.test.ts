/**
 * The obsidian profile with its real default model (Universal Sentence Encoder lite, shipped in
 * the npm package, nothing downloaded): a vault of notes in nested folders, each asked about by a
 * question that shares no content word with it. search_vault over a real MCP stdio client finds
 * them by meaning (hybrid, the default, and semantic); keyword search cannot.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, connectStdio, type StdioSession } from '../../support/mcp.js';
import { paraphraseCases } from '../../support/paraphrase-vault.js';
import { removeDir, tempDir } from '../../support/temp.js';

const FOLDERS = ['Life Admin', 'Hobbies/Outdoors & Sport', 'Home/Garden Ideas', 'Work Notes/2024 Q3'];
const cases = paraphraseCases().map((c, i) => ({ ...c, rel: `${FOLDERS[i % FOLDERS.length]}/${c.title}.md` }));
let sandbox: string;
let session: StdioSession;

beforeAll(async () => {
  sandbox = await tempDir('nk-e2e-obsidian-model-');
  const vault = path.join(sandbox, 'vault');
  for (const c of cases) {
    fs.mkdirSync(path.dirname(path.join(vault, c.rel)), { recursive: true });
    // Half with frontmatter, half without, as vaults are.
    fs.writeFileSync(path.join(vault, c.rel), c.rel.length % 2 ? `---\ntags: [howto]\n---\n\n${c.content}\n` : `${c.content}\n`);
  }
  fs.mkdirSync(path.join(vault, '.obsidian'));
  fs.writeFileSync(path.join(vault, '.obsidian', 'app.json'), '{}');
  session = await connectStdio(['serve', '--profile', 'obsidian', '--vault', vault], { NOTEKERNEL_CONFIG_DIR: path.join(sandbox, 'config') });
}, 60_000);

afterAll(async () => {
  await session?.close();
  await removeDir(sandbox);
});

async function rankOf(question: string, mode: string, target: string): Promise<number> {
  const answer = await callTool(session.client, 'search_vault', { query: question, mode, n_results: 5 });
  expect(answer.isError, JSON.stringify(answer.body)).toBe(false);
  const sources = (answer.body as { results: Array<{ source: string }> }).results.map((r) => r.source);
  return sources.indexOf(target) + 1;
}

describe('obsidian profile, real default model', () => {
  it('search_vault finds notes by meaning from questions that share no word with them', async () => {
    const table: Record<string, { top1: number; top5: number }> = {};
    for (const mode of ['hybrid', 'semantic', 'keyword']) {
      table[mode] = { top1: 0, top5: 0 };
      for (const c of cases) {
        const rank = await rankOf(c.question, mode, c.rel);
        if (rank === 1) table[mode]!.top1++;
        if (rank >= 1) table[mode]!.top5++;
      }
    }
    console.info(`paraphrase questions (${cases.length}):`, JSON.stringify(table));
    // The first question, with the tool's defaults (hybrid, 5 results).
    const first = await callTool(session.client, 'search_vault', { query: cases[0]!.question });
    expect((first.body as { results: Array<{ source: string }> }).results.map((r) => r.source)).toContain(cases[0]!.rel);
    expect(table.hybrid!.top5 / cases.length).toBeGreaterThanOrEqual(0.9);
    expect(table.semantic!.top5 / cases.length).toBeGreaterThanOrEqual(0.9);
    expect(table.keyword!.top5).toBeLessThanOrEqual(2);
  }, 600_000);

  it('planted unique tokens rank first with keyword and hybrid', async () => {
    let keyword = 0;
    let hybrid = 0;
    for (const c of cases) {
      if ((await rankOf(c.token, 'keyword', c.rel)) === 1) keyword++;
      if ((await rankOf(c.token, 'hybrid', c.rel)) === 1) hybrid++;
    }
    expect(keyword).toBe(cases.length);
    expect(hybrid).toBe(cases.length);
  }, 300_000);
});
