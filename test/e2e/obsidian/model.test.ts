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
    fs.writeFileSync(
      path.join(vault, c.rel),
      c.rel.length % 2 ? `---\ntags: [howto]\n---\n\n${c.content}\n` : `${c.content}\n`,
    );
  }
  fs.mkdirSync(path.join(vault, '.obsidian'));
  fs.writeFileSync(path.join(vault, '.obsidian', 'app.json'), '{}');
  session = await connectStdio(['serve', '--profile', 'obsidian', '--vault', vault], {
    NOTEKERNEL_CONFIG_DIR: path.join(sandbox, 'config'),
  });
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
  it('search_vault finds paraphrased questions by meaning and planted tokens by word; hybrid is never worse than either alone', async () => {
    const modes = ['hybrid', 'semantic', 'keyword'] as const;
    const table: Record<string, Record<string, { top1: number; top5: number }>> = {};
    for (const set of ['paraphrase', 'token'] as const) {
      table[set] = {};
      for (const mode of modes) {
        const row = (table[set]![mode] = { top1: 0, top5: 0 });
        for (const c of cases) {
          const rank = await rankOf(set === 'paraphrase' ? c.question : c.token, mode, c.rel);
          if (rank === 1) row.top1++;
          if (rank >= 1) row.top5++;
        }
      }
    }
    console.info(`search_vault over MCP, ${cases.length} notes, real model (top-1 / top-5):`);
    for (const mode of modes) {
      const p = table.paraphrase![mode]!;
      const k = table.token![mode]!;
      console.info(
        `  ${mode.padEnd(8)} paraphrase ${p.top1}/${p.top5}  token ${k.top1}/${k.top5}  combined ${p.top1 + k.top1}/${p.top5 + k.top5}`,
      );
    }
    // The first question, with the tool's defaults (hybrid, 5 results).
    const first = await callTool(session.client, 'search_vault', { query: cases[0]!.question });
    expect((first.body as { results: Array<{ source: string }> }).results.map((r) => r.source)).toContain(
      cases[0]!.rel,
    );
    const n = cases.length;
    expect(table.paraphrase!.hybrid!.top5 / n).toBeGreaterThanOrEqual(0.9);
    expect(table.paraphrase!.semantic!.top5 / n).toBeGreaterThanOrEqual(0.9);
    // Words alone mostly cannot: no note holds every word of its question (some share a stem by chance).
    expect(table.paraphrase!.keyword!.top1 / n).toBeLessThanOrEqual(0.2);
    expect(table.token!.keyword!.top1 / n).toBeGreaterThanOrEqual(0.95);
    expect(table.token!.hybrid!.top1 / n).toBeGreaterThanOrEqual(0.95);
    for (const k of ['top1', 'top5'] as const) {
      const combined = (mode: string) => table.paraphrase![mode]![k] + table.token![mode]![k];
      expect(combined('hybrid')).toBeGreaterThanOrEqual(Math.max(combined('semantic'), combined('keyword')));
    }
  }, 600_000);
});
