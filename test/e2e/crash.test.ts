/**
 * kill -9 in the middle of a 500-note batch: every note file is absent or complete, and after
 * a restart the journal has finished the batch (decision 025): the index holds all 500, each
 * complete, and no temp file is left.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import yaml from 'js-yaml';
import { connectStdio } from '../support/mcp.js';
import { runCli } from '../support/run-cli.js';
import { removeDir, tempDir } from '../support/temp.js';

const dirs: string[] = [];
/** A note file: serving an empty folder also writes each default type's `_description.md`. */
const isNote = (name: string) => name.endsWith('.md') && !name.startsWith('_');
afterAll(async () => {
  await Promise.all(dirs.map(removeDir));
});

describe('crash during a batch create', () => {
  it('leaves only complete notes, and the restart finishes the batch', async () => {
    const root = await tempDir('nk-crash-');
    dirs.push(root);
    const session = await connectStdio(['serve', '--profile', 'flint', '--vault', root, '--log-level', 'warn']);
    const notes = Array.from({ length: 500 }, (_, i) => ({
      type: 'general',
      title: `Crash note ${i}`,
      content: `body ${i}\n`.repeat(200),
    }));
    const batch = session.client.callTool({ name: 'create_note', arguments: { notes } }).catch(() => undefined);

    const folder = path.join(root, 'general');
    for (let waited = 0; waited < 20_000; waited += 5) {
      const count = (await fs.readdir(folder).catch(() => [])).filter(isNote).length;
      if (count >= 40) break;
      await new Promise((r) => setTimeout(r, 5));
    }
    process.kill(session.pid() as number, 'SIGKILL');
    await batch;
    await session.close().catch(() => undefined);

    const names = (await fs.readdir(folder)).filter(isNote);
    expect(names.length).toBeGreaterThanOrEqual(40);
    expect(names.length).toBeLessThan(500);
    for (const name of names) {
      const text = await fs.readFile(path.join(folder, name), 'utf8');
      const front = /^---\n([\s\S]*?)\n---\n\n([\s\S]*)$/.exec(text);
      expect(front, name).not.toBeNull();
      const meta = yaml.load(front?.[1] ?? '', { schema: yaml.CORE_SCHEMA }) as { title: string };
      const i = Number(/(\d+)/.exec(meta.title)?.[1]);
      expect(front?.[2], name).toBe(`body ${i}\n`.repeat(200));
    }

    const restarted = await runCli(['call', 'list_note_types', '{}', '--vault', root, '--json']);
    expect(restarted.code).toBe(0);
    const general = (JSON.parse(restarted.stdout) as Array<{ name: string; noteCount: number }>).find(
      (t) => t.name === 'general',
    );
    expect(general?.noteCount).toBe(500);
    const finished = (await fs.readdir(folder)).filter(isNote);
    expect(finished.length).toBe(500);
    for (const name of finished)
      expect(
        (await fs.readFile(path.join(folder, name), 'utf8')).endsWith(`body ${/(\d+)/.exec(name)?.[1]}\n`.repeat(200)),
        name,
      ).toBe(true);
    const leftovers = (await fs.readdir(folder)).filter((f) => f.startsWith('.nk-tmp-'));
    expect(leftovers).toEqual([]);
  });
});
