/**
 * Letter folding in the obsidian profile's search end to end: the built CLI over MCP stdio on a
 * real vault, the hybrid index (embedded SQLite engine, the small deterministic embedder). Every
 * mode's keywords find `Łódź` for `lodz`, `Bjørn` for `bjorn`, `Straße` for `strasse`, `Ærø` for
 * `aero`, and `Lodz` for `Łódź`; the result's content marks the words as written.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, connectStdio, type StdioSession } from '../../support/mcp.js';
import { removeDir, tempDir } from '../../support/temp.js';

let sandbox: string;
let session: StdioSession;

async function search(query: string, mode = 'keyword'): Promise<Array<{ source: string; content: string }>> {
  const answer = await callTool(session.client, 'search_vault', { query, mode });
  expect(answer.isError, JSON.stringify(answer.body)).toBe(false);
  return (answer.body as { results: Array<{ source: string; content: string }> }).results;
}
const sources = async (query: string, mode = 'keyword') => (await search(query, mode)).map((r) => r.source).sort();

beforeAll(async () => {
  sandbox = await tempDir('nk-e2e-obsidian-fold-');
  const vault = path.join(sandbox, 'vault');
  fs.mkdirSync(path.join(vault, 'Trips'), { recursive: true });
  fs.writeFileSync(
    path.join(vault, 'Trips', 'Łódź.md'),
    '# Łódź\n\nThe Straße by the river, where Bjørn sailed to Ærø in a long boat.\n',
  );
  fs.writeFileSync(
    path.join(vault, 'Trips', 'Plain.md'),
    '# Lodz in plain letters\n\nWritten without any accents at all.\n',
  );
  fs.writeFileSync(path.join(vault, 'Groceries.md'), '# Groceries\n\nMilk, bread and apples.\n');
  const config = path.join(sandbox, 'obsidian.yaml');
  fs.writeFileSync(
    config,
    'profile: obsidian\nsearch:\n  backend: hybrid-search\n  options: { embedder: hashed, embedThreads: 0 }\n',
  );
  session = await connectStdio(['serve', '--config', config, '--vault', vault], {
    NOTEKERNEL_CONFIG_DIR: path.join(sandbox, 'config'),
  });
}, 60_000);

afterAll(async () => {
  await session?.close();
  await removeDir(sandbox);
});

describe('search_vault folds letters beyond accents', () => {
  it('lodz, bjorn, strasse and aero find the note written with Ł, ø, ß and Æ; Łódź finds Lodz', async () => {
    expect(await sources('lodz')).toEqual(['Trips/Plain.md', 'Trips/Łódź.md']);
    expect(await sources('bjorn')).toEqual(['Trips/Łódź.md']);
    expect(await sources('strasse')).toEqual(['Trips/Łódź.md']);
    // Ærø folds to `aero` (ø → o, as Bjørn → bjorn).
    expect(await sources('aero')).toEqual(['Trips/Łódź.md']);
    expect(await sources('Łódź')).toEqual(['Trips/Plain.md', 'Trips/Łódź.md']);
    // Notes with every word first, then those with some (seed 004's keyword ranking).
    expect((await search('ŁÓDŹ plain')).map((r) => r.source)).toEqual(['Trips/Plain.md', 'Trips/Łódź.md']);
    expect((await sources('bjorn strasse', 'hybrid'))[0]).toBe('Trips/Łódź.md');
  });

  it('the content marks the words as written', async () => {
    const [hit] = await search('strasse bjorn');
    expect(hit?.content).toContain('The <mark>Straße</mark> by the river, where <mark>Bjørn</mark> sailed to Ærø');
    const [hybrid] = await search('aero', 'hybrid');
    expect(hybrid).toMatchObject({ source: 'Trips/Łódź.md' });
    expect(hybrid?.content).toContain('sailed to <mark>Ærø</mark> in');
  });
});
