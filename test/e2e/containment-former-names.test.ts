/**
 * Issue 19, item 14, end to end over stdio: a note's former names (what links written against
 * its old title resolve through) survive the loss of the index: they are kept in a small file
 * beside it, and a rebuilt index takes them back.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { callTool, connectStdio, type StdioSession } from '../support/mcp.js';
import { removeDir, tempDir } from '../support/temp.js';

let root: string;
const sessions: StdioSession[] = [];
afterAll(async () => {
  await Promise.all(sessions.map((s) => s.close()));
  if (root) await removeDir(root);
});

async function serve(): Promise<StdioSession> {
  const session = await connectStdio(['serve', '--profile', 'flint', '--vault', root]);
  sessions.push(session);
  return session;
}

async function broken(session: StdioSession): Promise<string> {
  return JSON.stringify((await callTool(session.client, 'find_broken_links', {})).body);
}

describe('former names', () => {
  it('survive a lost index: links to a former title still resolve after the rebuild', async () => {
    root = await tempDir('nk-e2e-former-');
    const first = await serve();
    await callTool(first.client, 'create_note', { type: 'general', title: 'Old Title', content: 'the target' });
    await callTool(first.client, 'create_note', { type: 'general', title: 'Linker', content: 'see [[Old Title]]' });
    const hash = (
      (await callTool(first.client, 'get_note', { identifier: 'general/old-title.md' })).body as {
        content_hash: string;
      }
    ).content_hash;
    const renamed = await callTool(first.client, 'rename_note', {
      identifier: 'general/old-title.md',
      new_title: 'New Title',
      content_hash: hash,
    });
    expect(renamed.isError, JSON.stringify(renamed.body)).toBe(false);
    // An outside edit puts the old wikilink back (as an interrupted rename would leave it).
    fs.writeFileSync(path.join(root, 'general', 'linker.md'), '---\ntitle: Linker\n---\n\nsee [[Old Title]]\n');
    await new Promise((r) => setTimeout(r, 300));
    expect(await broken(first)).not.toContain('Old Title');
    await first.close();

    const meta = path.join(root, '.flint-note');
    expect(fs.existsSync(path.join(meta, 'links-former-names.json'))).toBe(true);
    for (const name of fs.readdirSync(meta)) if (name.startsWith('notekernel.db')) fs.rmSync(path.join(meta, name));

    const second = await serve();
    expect(await broken(second)).not.toContain('Old Title');
    expect(second.stderr()).toContain('former names taken back');
  });
});
