/**
 * Letter folding in memory_search end to end: the built `notekernel serve --profile agent-memory`
 * over MCP stdio finds `Łódź` for `lodz`, `Bjørn` for `bjorn`, `Straße` for `strasse`, `Ærø`
 * for `aero` (and `Lodz` for `Łódź`), and marks the word as written in the snippet.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, connectStdio, type StdioSession } from '../support/mcp.js';
import { removeDir, tempDir } from '../support/temp.js';
import { git } from '../unit/markdown-git/helpers.js';

interface Hit {
  id: string;
  title: string;
  snippet: string;
}

let root: string;
let session: StdioSession;
const ids: Record<string, string> = {};

async function call<T>(name: string, args: Record<string, unknown> = {}): Promise<T> {
  const answer = await callTool(session.client, name, args);
  if (answer.isError) throw new Error(`${name} failed: ${JSON.stringify(answer.body)}`);
  return answer.body as T;
}

const search = (query: string) => call<Hit[]>('memory_search', { query });

beforeAll(async () => {
  root = await tempDir('nk-e2e-memory-fold-');
  git(root, ['init', '-q']);
  session = await connectStdio(['serve', '--profile', 'agent-memory', '--vault', root]);
  const capture = async (key: string, title: string, body: string) => {
    ids[key] = (await call<{ id: string }>('memory_capture', { title, body })).id;
  };
  await capture('lodz', 'Trip to Łódź', 'The Straße by the river, where Bjørn sailed to Ærø in a long boat.\n');
  await capture('plain', 'Lodz in plain letters', 'Written without any accents at all.\n');
  await capture('other', 'Groceries', 'Milk, bread and apples.\n');
}, 60_000);

afterAll(async () => {
  await session?.close();
  await removeDir(root);
});

describe('memory_search folds letters beyond accents', () => {
  it('lodz, bjorn, strasse and aeroe find the entry written with Ł, ø, ß and Æ', async () => {
    expect((await search('lodz')).map((h) => h.id).sort()).toEqual([ids.lodz, ids.plain].sort());
    expect((await search('bjorn')).map((h) => h.id)).toEqual([ids.lodz]);
    expect((await search('strasse')).map((h) => h.id)).toEqual([ids.lodz]);
    // Ærø folds to `aero` (ø → o, as Bjørn → bjorn), so `aeroe` would not find it.
    expect((await search('aero')).map((h) => h.id)).toEqual([ids.lodz]);
    expect((await search('BJØRN STRASSE')).map((h) => h.id)).toEqual([ids.lodz]);
  });

  it('the reverse: Łódź finds the entry written Lodz', async () => {
    expect((await search('Łódź')).map((h) => h.id).sort()).toEqual([ids.lodz, ids.plain].sort());
    expect((await search('ŁÓDŹ AND plain')).map((h) => h.id)).toEqual([ids.plain]);
    // A question: the entry holding both words first.
    expect((await search('ŁÓDŹ plain')).map((h) => h.id)[0]).toBe(ids.plain);
  });

  it('the snippet marks the word as written, though its folded form is longer', async () => {
    const [strasse] = await search('strasse');
    expect(strasse?.snippet).toBe('The <mark>Straße</mark> by the river, where Bjørn sailed to Ærø in a long boat.');
    const [bjorn] = await search('bjorn');
    expect(bjorn?.snippet).toBe('The Straße by the river, where <mark>Bjørn</mark> sailed to Ærø in a long boat.');
    const [aero] = await search('aero');
    expect(aero?.snippet).toContain('sailed to <mark>Ærø</mark> in');
  });
});
