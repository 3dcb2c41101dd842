/**
 * Two `notekernel serve` processes on one vault, each updating the same note with the same
 * hash: exactly one wins every round (a compare-and-swap under the cross-process lock), the
 * loser is told the current hash, and the file always holds the winner's content. And a note
 * edited outside the server gets a new hash, so a stale update is refused.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, connectStdio, type StdioSession } from '../support/mcp.js';
import { removeDir, tempDir } from '../support/temp.js';

let root: string;
let a: StdioSession;
let b: StdioSession;

beforeAll(async () => {
  root = await tempDir('nk-e2e-multi-');
  [a, b] = await Promise.all([
    connectStdio(['serve', '--profile', 'flint', '--vault', root, '--log-level', 'warn']),
    connectStdio(['serve', '--profile', 'flint', '--vault', root, '--log-level', 'warn']),
  ]);
});

afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
  await removeDir(root);
});

async function hashOf(session: StdioSession, identifier: string): Promise<string> {
  const got = await callTool(session.client, 'get_note', { identifier, fields: ['content_hash'] });
  return (got.body as { content_hash: string }).content_hash;
}

describe('two server processes on one vault', () => {
  it('lets exactly one of two same-hash updates win, every round', async () => {
    await callTool(a.client, 'create_note', { type: 'general', title: 'Contended', content: 'start' });
    const id = 'general/contended.md';
    for (let round = 0; round < 15; round++) {
      const hash = await hashOf(a, id);
      const [ra, rb] = await Promise.all([
        callTool(a.client, 'update_note', { identifier: id, content: `a${round}`, content_hash: hash }),
        callTool(b.client, 'update_note', { identifier: id, content: `b${round}`, content_hash: hash }),
      ]);
      const winners = [ra, rb].filter((r) => !r.isError);
      const losers = [ra, rb].filter((r) => r.isError);
      expect(winners, `round ${round}`).toHaveLength(1);
      expect(losers[0]?.body).toMatchObject({ error: 'content_hash_mismatch', provided_hash: hash });
      const winner = ra.isError ? `b${round}` : `a${round}`;
      const text = await fs.readFile(path.join(root, 'general', 'contended.md'), 'utf8');
      expect(text.endsWith(`\n\n${winner}`), `round ${round}`).toBe(true);
      expect((losers[0]!.body as { current_hash: string }).current_hash).toBe(await hashOf(b, id));
    }
  });

  it('refuses an update carrying the hash from before an outside edit', async () => {
    await callTool(a.client, 'create_note', { type: 'general', title: 'Edited outside', content: 'v1' });
    const id = 'general/edited-outside.md';
    const stale = await hashOf(a, id);
    const file = path.join(root, 'general', 'edited-outside.md');
    await fs.writeFile(file, (await fs.readFile(file, 'utf8')).replace('v1', 'changed by an editor'));
    const answer = await callTool(a.client, 'update_note', {
      identifier: id,
      content: 'agent overwrite',
      content_hash: stale,
    });
    expect(answer.isError).toBe(true);
    expect(answer.body).toMatchObject({ error: 'content_hash_mismatch', provided_hash: stale });
    expect(await fs.readFile(file, 'utf8')).toContain('changed by an editor');
  });
});
