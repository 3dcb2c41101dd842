/**
 * Undo puts every note back byte for byte, not only its content (issue 31): a folder of notes
 * written by hand (no frontmatter, frontmatter without `updated:` or `tags:`, CRLF, comments and
 * quotes), opened with the flint profile over MCP stdio on the built CLI. A rename rewriting the
 * links of 200 notes adds the store's keys to each; undo_operation — in a server started after
 * the rename — leaves every file as it was before, bytes compared; undoing the undo gives the
 * renamed files back exactly; a bulk delete's undo recreates the hand-written files as they were.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { noteFiles } from '../support/obsidian-vault.js';
import { callOk, connectStdio, type StdioSession } from '../support/mcp.js';
import { removeDir, tempDir } from '../support/temp.js';

const LINKERS = 200;
const dirs: string[] = [];
const sessions: StdioSession[] = [];
afterAll(async () => {
  await Promise.all(sessions.map((s) => s.close().catch(() => undefined)));
  await Promise.all(dirs.map(removeDir));
});

async function open(root: string): Promise<StdioSession> {
  const session = await connectStdio(['serve', '--profile', 'flint', '--vault', root], {
    NOTEKERNEL_CONFIG_DIR: path.join(root, '..', `${path.basename(root)}-registry`),
  });
  sessions.push(session);
  return session;
}

/** Notes as people write them: each kind of file the store would otherwise rewrite with its own keys. */
function handWritten(i: number): string {
  switch (i % 4) {
    case 0:
      return `Plain note ${i}, no frontmatter: see [[Hub]].\n`;
    case 1:
      return `---\ntitle: Linker ${i}\nauthor: "Ada"   # kept as written\n---\n\nLinks [[Hub|the hub]] and [[Hub#Goals]].\n`;
    case 2:
      return `---\r\ntitle: Linker ${i}\r\nstatus: draft\r\n---\r\nCRLF note ${i} about [[Hub]].\r\n`;
    default:
      return `# Linker ${i}\n\nNo final newline, [[hub]]`;
  }
}

async function vaultOfHandWrittenNotes(prefix: string): Promise<string> {
  const root = await tempDir(prefix);
  dirs.push(root);
  fs.mkdirSync(path.join(root, 'general'));
  fs.writeFileSync(path.join(root, 'general', 'hub.md'), '---\ntitle: Hub\n---\n## Goals\n\nThe hub.\n');
  for (let i = 0; i < LINKERS; i++) fs.writeFileSync(path.join(root, 'general', `linker-${i}.md`), handWritten(i));
  return root;
}

describe('undo_operation restores bytes', () => {
  it('a rename rewriting 200 notes is undone byte for byte after a restart, and the undo undone gives the renamed bytes back', async () => {
    const root = await vaultOfHandWrittenNotes('nk-undo-bytes-');
    const before = noteFiles(root);
    const first = await open(root);
    const hub = await callOk<{ content_hash: string }>(first, 'get_note', { identifier: 'general/hub.md' });
    const renamed = await callOk<{ operation_id: string; total_wikilinks_updated: number }>(first, 'rename_note', {
      identifier: 'general/hub.md',
      new_title: 'Central Hub',
      content_hash: hub.content_hash,
    });
    expect(renamed.total_wikilinks_updated).toBeGreaterThanOrEqual(LINKERS);
    const afterRename = noteFiles(root);
    // The rename wrote the store's keys into the hand-written files: what the undo must take out.
    expect(afterRename.get('general/linker-0.md')).toMatch(/^---\nupdated: /);
    await first.close();

    const second = await open(root);
    const undone = await callOk<{ restored: string[]; undo_operation_id: string }>(second, 'undo_operation', {
      operation_id: renamed.operation_id,
    });
    expect(undone.restored).toHaveLength(LINKERS + 1);
    const restored = noteFiles(root);
    const differing = [...before.keys()].filter((rel) => restored.get(rel) !== before.get(rel));
    expect(differing).toEqual([]);
    expect(restored).toEqual(before);
    for (const rel of ['general/linker-0.md', 'general/linker-2.md', 'general/linker-3.md'])
      expect(fs.readFileSync(path.join(root, rel))).toEqual(Buffer.from(before.get(rel) as string));
    // The link index follows the restored files: the hub is Hub again, linked from every note.
    expect((await callOk<{ title: string }>(second, 'get_note', { identifier: 'general/hub.md' })).title).toBe('Hub');
    const backlinks = await callOk<{ backlinks: Array<{ source_note_id: string }> }>(second, 'get_backlinks', {
      identifier: 'general/hub.md',
    });
    expect(new Set(backlinks.backlinks.map((b) => b.source_note_id)).size).toBe(LINKERS);

    await callOk(second, 'undo_operation', { operation_id: undone.undo_operation_id });
    expect(noteFiles(root)).toEqual(afterRename);
  }, 180_000);

  it('a bulk delete of hand-written notes is undone as the same files', async () => {
    const root = await vaultOfHandWrittenNotes('nk-undo-bytes-delete-');
    const before = noteFiles(root);
    const session = await open(root);
    const deleted = await callOk<{ operation_id: string; summary: { successful: number } }>(
      session,
      'bulk_delete_notes',
      { pattern: '^[Ll]inker[- ]1[0-9]$', confirm: true },
    );
    expect(deleted.summary.successful).toBeGreaterThan(0);
    expect(noteFiles(root).size).toBeLessThan(before.size);
    await callOk(session, 'undo_operation', { operation_id: deleted.operation_id });
    // The notes compared (flint may add its type's _description.md meanwhile: not a note undone here).
    const notesNow = new Map([...noteFiles(root)].filter(([rel]) => !rel.endsWith('_description.md')));
    expect(notesNow).toEqual(before);
  }, 120_000);
});
