/**
 * Issue 19, items 1 and 4, end to end over stdio: a YAML alias bomb on disk or sent by an agent
 * is skipped (read) or refused (write), the server keeps answering (each answer's time logged), and the
 * next start is unaffected; metadata nested past what the reader reads back is refused at write.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { callTool, connectStdio, type StdioSession } from '../support/mcp.js';
import { aliasBomb } from '../support/hostile.js';
import { removeDir, tempDir } from '../support/temp.js';

const dirs: string[] = [];
const sessions: StdioSession[] = [];
afterAll(async () => {
  await Promise.all(sessions.map((s) => s.close()));
  await Promise.all(dirs.map(removeDir));
});

async function serve(args: string[]): Promise<StdioSession> {
  const session = await connectStdio(['serve', ...args]);
  sessions.push(session);
  return session;
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

function nested(levels: number): Record<string, unknown> {
  const top: Record<string, unknown> = {};
  let at = top;
  for (let i = 0; i < levels; i++) at = at.k = {} as Record<string, unknown>;
  return top;
}

describe('flint: an alias bomb in a note file', () => {
  it('is skipped with a warning on read, and the next start is unaffected', async () => {
    const root = await tempDir('nk-e2e-bomb-');
    dirs.push(root);
    await fs.mkdir(path.join(root, 'general'));
    const bomb = `---\n${aliasBomb()}---\n\nThe body survives.\n`;
    expect(bomb.length).toBeLessThan(600);
    await fs.writeFile(path.join(root, 'general', 'bomb.md'), bomb);
    await fs.writeFile(path.join(root, 'general', 'ok.md'), '---\ntitle: Fine\n---\n\nok\n');
    for (let start = 0; start < 2; start++) {
      const session = await serve(['--profile', 'flint', '--vault', root]);
      const read = await timed(() => callTool(session.client, 'get_note', { identifier: 'general/bomb.md' }));
      expect(read.value.isError).toBe(false);
      expect(JSON.stringify(read.value.body)).toContain('The body survives.');
      const listed = await timed(() => callTool(session.client, 'list_notes_by_type', { type: 'general' }));
      console.info(
        `start ${start}: get_note of the bomb ${Math.round(read.ms)} ms, list_notes_by_type ${Math.round(listed.ms)} ms`,
      );
      expect(JSON.stringify(listed.value.body)).toContain('ok.md');
      await session.close();
    }
  });

  it('sent through create_note and update_note: stays body text, or is refused; deep metadata is refused', async () => {
    const root = await tempDir('nk-e2e-bomb-write-');
    dirs.push(root);
    const session = await serve(['--profile', 'flint', '--vault', root]);
    const created = await timed(() =>
      callTool(session.client, 'create_note', {
        type: 'general',
        title: 'Bomb body',
        content: `---\n${aliasBomb()}---\nafter`,
      }),
    );
    console.info(`create_note with a bomb as body: ${Math.round(created.ms)} ms`);
    expect(created.value.isError).toBe(false);
    const read = await callTool(session.client, 'get_note', { identifier: 'general/bomb-body.md' });
    expect((read.body as { content: string }).content).toContain('*k');

    const deep = await timed(() =>
      callTool(session.client, 'create_note', {
        type: 'general',
        title: 'Deep',
        content: 'x',
        metadata: { deep: nested(99) },
      }),
    );
    expect(deep.value.isError).toBe(true);
    expect(deep.value.body).toMatchObject({ error: 'validation_failed', field: 'deep' });
    const shallow = await callTool(session.client, 'create_note', {
      type: 'general',
      title: 'Shallow',
      content: 'x',
      metadata: { fine: nested(20) },
    });
    expect(shallow.isError).toBe(false);
    const hash = (
      (await callTool(session.client, 'get_note', { identifier: 'general/shallow.md' })).body as {
        content_hash: string;
      }
    ).content_hash;
    const update = await callTool(session.client, 'update_note', {
      identifier: 'general/shallow.md',
      content_hash: hash,
      metadata: { deep: nested(99) },
    });
    expect(update.body).toMatchObject({ error: 'validation_failed', field: 'deep' });
    const back = await callTool(session.client, 'get_note', { identifier: 'general/shallow.md' });
    expect((back.body as { metadata: Record<string, unknown> }).metadata.fine).toEqual(nested(20));
  });
});

describe('zettelkasten: save_card with an alias bomb', () => {
  it('is refused with validation_failed naming the field; the server and the next start answer', async () => {
    const vault = await tempDir('nk-e2e-bomb-zk-');
    dirs.push(vault);
    const card = `---\n${aliasBomb()}---\n\n# Card\n`;
    expect(Buffer.byteLength(card)).toBeLessThan(600);
    const session = await serve(['--profile', 'zettelkasten', '--vault', vault]);
    const saved = await timed(() =>
      callTool(session.client, 'save_card', { formatted_card: card, filename: 'bomb.md' }),
    );
    console.info(`save_card with a bomb: ${Math.round(saved.ms)} ms`);
    expect(saved.value.isError).toBe(true);
    expect(saved.value.body).toMatchObject({ error: 'validation_failed', field: expect.stringMatching(/^[a-l]$/) });
    expect((await callTool(session.client, 'get_available_templates')).isError).toBe(false);
    await session.close();
    const again = await serve(['--profile', 'zettelkasten', '--vault', vault]);
    expect((await callTool(again.client, 'get_available_templates')).isError).toBe(false);
  });
});
