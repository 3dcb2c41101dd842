/**
 * The card-workflow plugin added to the flint profile: flint reads notes in type folders only,
 * so without output_directory cards go to a `cards` type folder and are indexed like any note;
 * an output_directory flint does not read (the root, said explicitly) gets a warning.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, connectStdio } from '../support/mcp.js';
import { removeDir, tempDir } from '../support/temp.js';

let root: string;
beforeAll(async () => {
  root = await tempDir('nk-e2e-cards-flint-');
});
afterAll(async () => {
  await removeDir(root);
});

async function saveIn(
  name: string,
  plugin: Record<string, unknown>,
): Promise<{ body: Record<string, unknown>; found: string[] }> {
  const vault = path.join(root, name);
  await fs.mkdir(vault);
  const config = path.join(root, `${name}.yaml`);
  await fs.writeFile(config, `profile: flint\nplugins:\n  card-workflow: ${JSON.stringify(plugin)}\n`);
  const session = await connectStdio(['serve', '--config', config, '--vault', vault]);
  try {
    const saved = await callTool(session.client, 'save_card', {
      formatted_card: '# A card\n\nbody of the card\n',
      filename: 'a-card',
    });
    expect(saved.isError, JSON.stringify(saved.body)).toBe(false);
    const search = await callTool(session.client, 'search_notes', { query: 'card' });
    const found = ((search.body as { results?: Array<{ id: string }> }).results ?? []).map((r) => r.id);
    return { body: saved.body as Record<string, unknown>, found };
  } finally {
    await session.close();
  }
}

describe('card-workflow in the flint profile', () => {
  it('without output_directory saves into a folder flint reads, and the card is a note found by search', async () => {
    const { body, found } = await saveIn('default', {});
    expect(body.note_id).toBe('cards/a-card.md');
    expect(body.relative_path).toBe('cards/a-card.md');
    expect(body.warnings).toBeUndefined();
    expect(found).toContain('cards/a-card.md');
  });

  it('warns when output_directory names the vault root, where flint does not read notes', async () => {
    const { body } = await saveIn('root', { output_directory: '.' });
    expect(body.note_id).toBeNull();
    expect(body.warnings).toEqual([expect.stringContaining('output_directory')]);
  });

  it('indexes the card when output_directory is a note-type folder', async () => {
    const { body } = await saveIn('typed', { output_directory: 'zettel' });
    expect(body.note_id).toBe('zettel/a-card.md');
    expect(body.warnings).toBeUndefined();
  });
});
