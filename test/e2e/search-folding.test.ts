/**
 * Letter folding end to end: the built `notekernel serve` over MCP stdio finds `Łódź` for
 * `lodz` (and the reverse), and resolves `[[Lodz]]` to it, on real files and a real index.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, connectStdio, type StdioSession } from '../support/mcp.js';
import { removeDir, tempDir } from '../support/temp.js';

let root: string;
let session: StdioSession;

async function write(rel: string, title: string, body: string): Promise<void> {
  const file = path.join(root, ...rel.split('/'));
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, `---\ntitle: ${JSON.stringify(title)}\n---\n\n${body}\n`);
}

beforeAll(async () => {
  root = await tempDir('nk-e2e-fold-');
  await write('general/lodz.md', 'Łódź', 'A city in Poland; Bjørn met Æsa there.');
  await write('general/plain.md', 'Malmo trip', 'From Malmö to Krakow, then [[Lodz]] and [[øresund straße]].');
  await write('general/oresund.md', 'Oresund Strasse', 'The bridge.');
  session = await connectStdio(['serve', '--profile', 'flint', '--vault', root]);
}, 60_000);

afterAll(async () => {
  await session?.close();
  await removeDir(root);
});

async function searchIds(query: string): Promise<string[]> {
  const answer = await callTool(session.client, 'search_notes', { query });
  expect(answer.isError).toBe(false);
  return (answer.body as { results: Array<{ id: string }> }).results.map((r) => r.id);
}

describe('letter folding over MCP', () => {
  it('lodz finds Łódź, and the folded letters match both ways', async () => {
    // The title match first; the note linking to [[Lodz]] holds the word too.
    expect(await searchIds('lodz')).toEqual(['general/lodz.md', 'general/plain.md']);
    expect(await searchIds('ŁÓDŹ')).toEqual(['general/lodz.md', 'general/plain.md']);
    expect(await searchIds('bjorn aesa')).toEqual(['general/lodz.md']);
    expect(await searchIds('malmo')).toEqual(['general/plain.md']);
    expect(await searchIds('øresund straße')).toEqual(['general/oresund.md', 'general/plain.md']);
  });

  it('links resolve folded too', async () => {
    const answer = await callTool(session.client, 'get_backlinks', { identifier: 'general/lodz.md' });
    expect(
      (answer.body as { backlinks: Array<{ source_note_id: string }> }).backlinks.map((b) => b.source_note_id),
    ).toEqual(['general/plain.md']);
    const oresund = await callTool(session.client, 'get_backlinks', { identifier: 'general/oresund.md' });
    expect((oresund.body as { backlinks: unknown[] }).backlinks).toHaveLength(1);
  });
});
