/**
 * A vault on a small tmpfs filled to its last byte while the flint server serves it, then given
 * space again (issue 32): the server never exits, no index is moved aside, every write in
 * between is refused with `no_space` naming the note and nothing on disk changes, an answer
 * whose index row could not be written still answers (with a notice), and after space returns
 * and a restart the index agrees with the files. A start on the full disk serves from a
 * stand-in index and leaves the vault's own index where it is.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callOk, callTool, connectStdio, type StdioSession } from '../support/mcp.js';
import { mountSmallDisk, noSmallDisk, type SmallDisk } from '../support/faults.js';
import { removeDir, tempDir } from '../support/temp.js';

const serveArgs = (vault: string) => ['serve', '--profile', 'flint', '--vault', vault, '--log-level', 'warn'];

let outer: string;
let disk: SmallDisk;
let vault: string;

beforeAll(async () => {
  if (noSmallDisk) return;
  outer = await tempDir('nk-e2e-full-');
  disk = mountSmallDisk(path.join(outer, 'disk'), 4);
  vault = path.join(disk.dir, 'vault');
});

afterAll(async () => {
  if (noSmallDisk) return;
  disk?.unmount();
  await removeDir(outer);
});

function snapshot(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const file = path.join(entry.parentPath, entry.name);
    const rel = path.relative(dir, file);
    if (rel.split(path.sep)[0]?.startsWith('.')) continue; // the index and journal: derived
    if (entry.isDirectory()) files.set(`${rel}/`, '');
    else if (entry.isFile()) files.set(rel, fs.readFileSync(file, 'utf8'));
  }
  return files;
}

function alive(session: StdioSession): boolean {
  const pid = session.pid();
  if (pid === null) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function movedAside(): string[] {
  return fs.readdirSync(path.join(vault, '.flint-note')).filter((name) => name.includes('.corrupt-'));
}

describe.skipIf(noSmallDisk)('a full disk (issue 32)', () => {
  it('refuses every write with no_space, keeps serving, and recovers when space returns', async () => {
    const server = await connectStdio(serveArgs(vault));
    try {
      for (let i = 0; i < 5; i++)
        await callOk(server, 'create_note', {
          type: 'general',
          title: `Before ${i}`,
          content: `written before the disk filled ${i}`,
        });
      const before = await callOk<{ content_hash: string }>(server, 'get_note', {
        identifier: 'general/before-0.md',
        fields: ['content_hash'],
      });
      // Edited behind the server's back, at length: its next read heals the row, which needs
      // more index space than the write-ahead log has free.
      const words = Array.from({ length: 30_000 }, (_, i) => `w${i.toString(36)}`).join(' ');
      fs.appendFileSync(path.join(vault, 'general', 'before-1.md'), `\nedited outside ${words}`);

      disk.fill();
      const onDisk = snapshot(vault);
      const refused: unknown[] = [];
      for (let i = 0; i < 10; i++) {
        const attempts = [
          callTool(server.client, 'create_note', { type: 'general', title: `During ${i}`, content: 'x'.repeat(2000) }),
          callTool(server.client, 'update_note', {
            identifier: 'general/before-0.md',
            content: `changed ${i}`,
            content_hash: before.content_hash,
          }),
          callTool(server.client, 'create_note', { type: 'newtype', title: `New type ${i}`, content: 'y' }),
        ];
        for (const answer of await Promise.all(attempts)) {
          expect(answer.isError, JSON.stringify(answer.body)).toBe(true);
          expect(answer.body).toMatchObject({ error: 'no_space' });
          refused.push(answer.body);
        }
      }
      expect(refused).toHaveLength(30);
      expect((refused[0] as { message: string }).message).toMatch(/general\/during-0\.md: no space left on the device/);
      expect(snapshot(vault)).toEqual(onDisk);

      // A read answers from the file whatever the index can take.
      const healed = await callOk<{ content: string; notices?: string[] }>(server, 'get_note', {
        identifier: 'general/before-1.md',
      });
      expect(healed.content).toContain('edited outside');
      expect(healed.notices?.join(' ')).toMatch(/index rows: .*no space left on the device.*retried automatically/i);
      const search = await callTool(server.client, 'search_notes', { query: 'written before' });
      expect(search.isError, JSON.stringify(search.body)).toBe(false);
      // Past the index's idle checkpoint (500 ms), which once ended the process on a full disk.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(alive(server)).toBe(true);
      expect(movedAside()).toEqual([]);

      disk.free();
      const after = await callOk<{ id: string }>(server, 'create_note', {
        type: 'general',
        title: 'After',
        content: 'written once space returned',
      });
      expect(after.id).toBe('general/after.md');
      // The rows that waited are written once the index takes them again: the notices go.
      let notices: string[] | undefined = ['pending'];
      for (let i = 0; i < 50 && notices?.length; i++) {
        notices = (await callOk<{ notices?: string[] }>(server, 'list_note_types', {})).notices;
        if (notices?.length) await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(notices ?? []).toEqual([]);
    } finally {
      await server.close();
    }

    const restarted = await connectStdio(serveArgs(vault));
    try {
      const listed = await callOk<Array<{ id: string }> | { notes: Array<{ id: string }> }>(
        restarted,
        'list_notes_by_type',
        { type: 'general' },
      );
      const ids = (Array.isArray(listed) ? listed : listed.notes).map((n) => n.id).sort();
      const files = fs
        .readdirSync(path.join(vault, 'general'))
        .filter((f) => f.endsWith('.md') && f !== '_description.md')
        .map((f) => `general/${f}`)
        .sort();
      expect(ids).toEqual(files);
      const found = await callOk<{ results: Array<{ id: string }> }>(restarted, 'search_notes', {
        query: 'edited outside',
      });
      expect(found.results.map((r) => r.id)).toContain('general/before-1.md');
    } finally {
      await restarted.close();
    }
    expect(movedAside()).toEqual([]);
  });

  it('starts on a full disk three times, serving reads, refusing writes, moving nothing aside', async () => {
    const index = path.join(vault, '.flint-note', 'notekernel.db');
    const size = fs.statSync(index).size;
    disk.fill();
    try {
      for (let start = 0; start < 3; start++) {
        const server = await connectStdio(serveArgs(vault));
        try {
          const found = await callOk<{ results: unknown[] }>(server, 'search_notes', { query: 'written before' });
          expect(found.results.length).toBeGreaterThan(0);
          const write = await callTool(server.client, 'create_note', {
            type: 'general',
            title: `Start ${start}`,
            content: 'z',
          });
          expect(write.body).toMatchObject({ error: 'no_space' });
        } finally {
          await server.close();
        }
      }
    } finally {
      disk.free();
    }
    expect(movedAside()).toEqual([]);
    expect(fs.statSync(index).size).toBeGreaterThanOrEqual(size);
  });
});
