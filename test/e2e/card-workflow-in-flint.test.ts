/**
 * The card-workflow plugin added to the flint profile: flint reads notes in type folders only,
 * so a card saved at the vault root is not a note there — save_card says so and what to set;
 * with output_directory on a type folder the card is indexed like any note.
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

async function saveIn(name: string, plugin: Record<string, unknown>): Promise<Record<string, unknown>> {
  const vault = path.join(root, name);
  await fs.mkdir(vault);
  const config = path.join(root, `${name}.yaml`);
  await fs.writeFile(config, `profile: flint\nplugins:\n  card-workflow: ${JSON.stringify(plugin)}\n`);
  const session = await connectStdio(['serve', '--config', config, '--vault', vault]);
  try {
    const saved = await callTool(session.client, 'save_card', { formatted_card: '# A card\n\nbody\n', filename: 'a-card' });
    expect(saved.isError, JSON.stringify(saved.body)).toBe(false);
    return saved.body as Record<string, unknown>;
  } finally {
    await session.close();
  }
}

describe('card-workflow in the flint profile', () => {
  it('warns when the card lands where flint does not read notes', async () => {
    const body = await saveIn('root', {});
    expect(body.note_id).toBeNull();
    expect(body.warnings).toEqual([expect.stringContaining('output_directory')]);
  });

  it('indexes the card when output_directory is a note-type folder', async () => {
    const body = await saveIn('typed', { output_directory: 'cards' });
    expect(body.note_id).toBe('cards/a-card.md');
    expect(body.warnings).toBeUndefined();
  });
});
