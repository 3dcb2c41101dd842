/**
 * An Obsidian-style folder (notes at the root, nested folders, spaces, a `.obsidian/` folder,
 * notes with and without frontmatter) opened by each profile: `notekernel index` lists what it
 * read and what it skipped and why, and the opening warns once, summarised.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, connectStdio } from '../support/mcp.js';
import { runCli } from '../support/run-cli.js';
import { removeDir, tempDir } from '../support/temp.js';

const FILES: Record<string, string> = {
  'Welcome.md': '# Welcome\n\nNo frontmatter at the root.\n',
  'Daily Notes/2024-01-01.md': '# Monday\n\nA daily note.\n',
  'Projects/Plan.md': '---\ntitle: Plan\ntags: [work]\n---\n\nThe plan.\n',
  'Projects/Sub Folder/Deep.md': '---\ntitle: Deep\n---\n\nNested twice.\n',
  'ideas/idea one.md': 'An idea without frontmatter.\n',
  '.obsidian/app.json': '{}\n',
  '.obsidian/workspace.md': 'not a note: a tool folder\n',
  'attachments/image.png': 'png',
};

let root: string;
beforeAll(async () => {
  root = await tempDir('nk-e2e-existing-');
});
afterAll(async () => {
  await removeDir(root);
});

async function obsidianFolder(name: string): Promise<string> {
  const dir = path.join(root, name);
  for (const [rel, text] of Object.entries(FILES)) {
    await fs.mkdir(path.dirname(path.join(dir, rel)), { recursive: true });
    await fs.writeFile(path.join(dir, rel), text);
  }
  return dir;
}

interface Report {
  scanned: number;
  skipped: Array<{ path: string; reason: string }>;
}

async function indexJson(profile: string, dir: string): Promise<Report> {
  const run = await runCli(['index', '--profile', profile, '--vault', dir, '--json', '--log-level', 'silent']);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as Report;
}

/** The opening's summary, once: polled, as fs-sqlite's first refresh runs behind the open. */
async function openingWarnings(profile: string, dir: string): Promise<string[]> {
  const session = await connectStdio(['serve', '--profile', profile, '--vault', dir], { NOTEKERNEL_LOG_LEVEL: 'warn' });
  try {
    const tools = await session.client.listTools();
    const lister = tools.tools.find((t) => ['list_notes_by_type', 'memory_list', 'find_cards'].includes(t.name));
    if (lister)
      await callTool(session.client, lister.name, lister.name === 'list_notes_by_type' ? { type: 'Projects' } : {});
    const started = Date.now();
    while (!session.stderr().includes('not read as notes') && Date.now() - started < 10_000)
      await new Promise((r) => setTimeout(r, 100));
    return session
      .stderr()
      .split('\n')
      .filter((line) => line.includes('not read as notes'));
  } finally {
    await session.close();
  }
}

describe('an Obsidian-style folder opened as it is', () => {
  it('flint reads type folders only and says which files it skipped and why', async () => {
    const dir = await obsidianFolder('flint');
    const report = await indexJson('flint', dir);
    expect(report.scanned).toBe(2); // Projects/Plan.md, ideas/idea one.md
    const byPath = Object.fromEntries(report.skipped.map((s) => [s.path, s.reason]));
    expect(Object.keys(byPath).sort()).toEqual([
      'Daily Notes/2024-01-01.md',
      'Projects/Sub Folder/Deep.md',
      'Welcome.md',
    ]);
    expect(byPath['Welcome.md']).toMatch(/vault root/);
    expect(byPath['Projects/Sub Folder/Deep.md']).toMatch(/nested folder/);
    expect(byPath['Daily Notes/2024-01-01.md']).toMatch(/not a note type/);
    expect(report.skipped.some((s) => s.path.startsWith('.obsidian'))).toBe(false);

    const text = await runCli(['index', '--profile', 'flint', '--vault', dir, '--log-level', 'silent']);
    expect(text.stdout).toMatch(/^ {2}skipped: {4}3$/m);
    expect(text.stdout).toContain('3 files not read as notes:');
    expect(text.stdout).toMatch(/^ {2}1 at the vault root.*\n {6}Welcome\.md$/m);

    const warnings = await openingWarnings('flint', dir);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('3 files not read as notes');
    expect(warnings[0]).toContain('storage.options.layout: flat');
  });

  it('zettelkasten reads every folder (but not .obsidian/) and skips nothing', async () => {
    const dir = await obsidianFolder('zettelkasten');
    const report = await indexJson('zettelkasten', dir);
    expect(report.scanned).toBe(5);
    expect(report.skipped).toEqual([]);
    expect(await openingWarnings('zettelkasten', dir)).toEqual([]);
  });

  it('agent-memory reads id__ entries only and names every other markdown file', async () => {
    const dir = await obsidianFolder('agent-memory');
    const report = await indexJson('agent-memory', dir);
    expect(report.skipped.map((s) => s.path).sort()).toEqual([
      'Daily Notes/2024-01-01.md',
      'Projects/Plan.md',
      'Projects/Sub Folder/Deep.md',
      'Welcome.md',
      'ideas/idea one.md',
    ]);
    expect(new Set(report.skipped.map((s) => s.reason))).toEqual(new Set([expect.stringContaining('id__')]));
    const warnings = await openingWarnings('agent-memory', dir);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('5 files not read as notes');
  });
});
