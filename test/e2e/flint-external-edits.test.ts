/**
 * Another program edits the vault while the server runs: additions, edits, deletions and
 * renames show through the watcher (how soon is logged); an idle server burns no CPU.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, connectStdio, type StdioSession } from '../support/mcp.js';
import { removeDir, tempDir } from '../support/temp.js';

let root: string;
let session: StdioSession;

async function noteCount(type: string): Promise<number> {
  const answer = await callTool(session.client, 'list_note_types');
  return (answer.body as Array<{ name: string; noteCount: number }>).find((t) => t.name === type)?.noteCount ?? 0;
}

/** A deadline that only catches a watch that never reports: how soon it does is logged, not asserted. */
const SEEN_WITHIN_MS = 15_000;

async function within(ms: number, check: () => Promise<boolean>): Promise<number> {
  const start = Date.now();
  for (;;) {
    if (await check()) return Date.now() - start;
    if (Date.now() - start > ms) throw new Error(`not seen within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function cpuMs(pid: number): Promise<number> {
  return fs.readFile(`/proc/${pid}/stat`, 'utf8').then((text) => {
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in clock ticks of 10 ms
  });
}

beforeAll(async () => {
  root = await tempDir('nk-e2e-watch-');
  await fs.mkdir(path.join(root, 'general'));
  session = await connectStdio(['serve', '--profile', 'flint', '--vault', root]);
});

afterAll(async () => {
  await session?.close();
  await removeDir(root);
});

describe('external edits while serving', () => {
  it('sees a note added by another program', async () => {
    await fs.writeFile(
      path.join(root, 'general', 'outside.md'),
      '---\ntitle: From outside\n---\n\nwritten by an editor\n',
    );
    const ms = await within(SEEN_WITHIN_MS, async () => (await noteCount('general')) === 1);
    console.info(`a note added outside: counted after ${ms} ms`);
  });

  it('serves an external edit with a new hash', async () => {
    const before = (await callTool(session.client, 'get_note', { identifier: 'general/outside.md' })).body as {
      content_hash: string;
    };
    await fs.writeFile(path.join(root, 'general', 'outside.md'), '---\ntitle: From outside, edited\n---\n\nchanged\n');
    const after = (await callTool(session.client, 'get_note', { identifier: 'general/outside.md' })).body as {
      content_hash: string;
      title: string;
    };
    expect(after.title).toBe('From outside, edited');
    expect(after.content_hash).not.toBe(before.content_hash);
  });

  it('follows a rename and a deletion made outside', async () => {
    await fs.rename(path.join(root, 'general', 'outside.md'), path.join(root, 'general', 'moved.md'));
    await within(SEEN_WITHIN_MS, async () => {
      const moved = await callTool(session.client, 'get_note', { identifier: 'general/moved.md' });
      return !moved.isError && (await noteCount('general')) === 1;
    });
    await fs.rm(path.join(root, 'general', 'moved.md'));
    await within(SEEN_WITHIN_MS, async () => (await noteCount('general')) === 0);
  });

  it('uses no CPU while idle', async () => {
    const pid = session.pid() as number;
    // Start-up work ends with the opening integrity check, 2 s after the opening refresh (decision 019).
    await new Promise((r) => setTimeout(r, 2500));
    const start = await cpuMs(pid);
    await new Promise((r) => setTimeout(r, 2000));
    const used = (await cpuMs(pid)) - start;
    expect(used).toBeLessThanOrEqual(40); // at most 2% of one core over 2 s, i.e. about nothing
  });
});
