/**
 * Undo over MCP against the built server: a rename with its link rewrites is listed by
 * list_operations (tool, time, notes) and undone byte for byte — in a server started after the
 * rename; an undo after an outside edit of one touched note is refused naming that note, and
 * with force: true keeps the edit and adds the previous state as a conflict copy; a batch create
 * is undone by deleting the notes it made; a bulk delete and a type migration are undone (the
 * deleted notes come back with their text, the moved notes are their old files again); an undo
 * is itself listed and can be undone; list_operations names who asked (the MCP client, `cli`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { noteFiles } from '../support/obsidian-vault.js';
import { callOk, callTool, connectStdio, type StdioSession } from '../support/mcp.js';
import { runCli } from '../support/run-cli.js';
import { removeDir, tempDir } from '../support/temp.js';

const dirs: string[] = [];
const sessions: StdioSession[] = [];
afterAll(async () => {
  await Promise.all(sessions.map((s) => s.close().catch(() => undefined)));
  await Promise.all(dirs.map(removeDir));
});

async function open(profile: string, root: string): Promise<StdioSession> {
  const session = await connectStdio(['serve', '--profile', profile, '--vault', root]);
  sessions.push(session);
  return session;
}

interface Operation {
  id: string;
  operation: string;
  by?: string;
  undoes?: string;
  at: string;
  state: string;
  notes: string[];
  undoable: boolean;
}

async function renameWithLinks(
  root: string,
  session: StdioSession,
  linkers: number,
): Promise<{ before: Map<string, string>; operationId: string }> {
  await callOk(session, 'create_note', {
    notes: [
      { title: 'Hub', content: 'The hub.\n' },
      ...Array.from({ length: linkers }, (_, i) => ({
        title: `Linker ${i}`,
        content: `Note ${i}: [[Hub]] and [[Hub|the hub]].\n`,
      })),
    ],
  });
  const hub = await callOk<{ content_hash: string }>(session, 'get_note', { identifier: 'general/hub.md' });
  const before = noteFiles(root);
  const renamed = await callOk<{ operation_id: string; total_wikilinks_updated: number }>(session, 'rename_note', {
    identifier: 'general/hub.md',
    new_title: 'Central Hub',
    content_hash: hub.content_hash,
  });
  expect(renamed.total_wikilinks_updated).toBe(linkers * 2);
  return { before, operationId: renamed.operation_id };
}

describe('undo of a journalled operation', () => {
  it('restores every note a rename touched byte for byte, after a restart', async () => {
    const root = await tempDir('nk-undo-rename-');
    dirs.push(root);
    const first = await open('flint', root);
    const { before, operationId } = await renameWithLinks(root, first, 30);
    expect(noteFiles(root)).not.toEqual(before);
    await first.close();

    const second = await open('flint', root);
    const listed = await callOk<{ operations: Operation[] }>(second, 'list_operations', {});
    const entry = listed.operations.find((o) => o.id === operationId) as Operation;
    expect(entry).toMatchObject({ operation: 'rename_note', state: 'done', undoable: true });
    expect(entry.notes).toHaveLength(31);
    expect(entry.notes).toContain('general/hub.md');
    expect(Date.now() - Date.parse(entry.at)).toBeLessThan(120_000);

    const undone = await callOk<{ restored: string[] }>(second, 'undo_operation', { operation_id: operationId });
    expect(undone.restored).toHaveLength(31);
    expect(noteFiles(root)).toEqual(before);
    const hub = await callOk<{ title: string }>(second, 'get_note', { identifier: 'general/hub.md' });
    expect(hub.title).toBe('Hub');
    const backlinks = await callOk<{ backlinks: unknown[] }>(second, 'get_backlinks', { identifier: 'general/hub.md' });
    expect(backlinks.backlinks).toHaveLength(60);
    const again = await callTool(second.client, 'undo_operation', { operation_id: operationId });
    expect(again.isError).toBe(true);
  }, 120_000);

  it('is refused naming the note edited since, and forced keeps the edit beside a conflict copy', async () => {
    const root = await tempDir('nk-undo-conflict-');
    dirs.push(root);
    const session = await open('flint', root);
    const { operationId } = await renameWithLinks(root, session, 5);
    const edited = path.join(root, 'general', 'linker-2.md');
    fs.writeFileSync(edited, fs.readFileSync(edited, 'utf8').replace('Note 2:', 'Note 2 (edited by hand):'));
    const afterEdit = noteFiles(root);

    const refused = await callTool(session.client, 'undo_operation', { operation_id: operationId });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.body)).toContain('general/linker-2.md');
    expect(noteFiles(root)).toEqual(afterEdit);

    const forced = await callOk<{ restored: string[]; conflict_copies: Array<{ id: string; copy: string }> }>(
      session,
      'undo_operation',
      { operation_id: operationId, force: true },
    );
    expect(forced.restored).toHaveLength(5);
    expect(forced.conflict_copies.map((c) => c.id)).toEqual(['general/linker-2.md']);
    expect(fs.readFileSync(edited, 'utf8')).toBe(afterEdit.get('general/linker-2.md'));
    const copy = await callOk<{ content: string }>(session, 'get_note', {
      identifier: forced.conflict_copies[0]?.copy,
    });
    expect(copy.content).toBe('Note 2: [[Hub]] and [[Hub|the hub]].\n');
  }, 120_000);

  it('undoes a batch create by deleting the notes it made', async () => {
    const root = await tempDir('nk-undo-batch-');
    dirs.push(root);
    const session = await open('flint', root);
    const before = noteFiles(root);
    const created = await callOk<{ operation_id: string; successful: number }>(session, 'create_note', {
      notes: Array.from({ length: 20 }, (_, i) => ({ title: `Made ${i}`, content: `x${i}\n` })),
    });
    expect(created.successful).toBe(20);
    const undone = await callOk<{ deleted: string[] }>(session, 'undo_operation', {
      operation_id: created.operation_id,
    });
    expect(undone.deleted).toHaveLength(20);
    expect(noteFiles(root)).toEqual(before);
  }, 120_000);

  it('undoes a bulk delete: every deleted note comes back with its title, text and tags; the undo is listed and undone in turn', async () => {
    const root = await tempDir('nk-undo-delete-');
    dirs.push(root);
    const session = await open('flint', root);
    await callOk(session, 'create_note', {
      notes: Array.from({ length: 8 }, (_, i) => ({ title: `Gone ${i}`, content: `text of ${i}\n#keep-me\n` })),
    });
    const read = (id: string) =>
      callOk<{ title: string; content: string; tags: string[] }>(session, 'get_note', { identifier: id });
    const ids = Array.from({ length: 8 }, (_, i) => `general/gone-${i}.md`);
    const before = await Promise.all(ids.map(read));
    const deleted = await callOk<{ operation_id: string; summary: { successful: number } }>(
      session,
      'bulk_delete_notes',
      { pattern: '^Gone', confirm: true },
    );
    expect(deleted.summary.successful).toBe(8);
    for (const id of ids) expect(fs.existsSync(path.join(root, id))).toBe(false);

    const undone = await callOk<{ recreated: string[]; undo_operation_id: string }>(session, 'undo_operation', {
      operation_id: deleted.operation_id,
    });
    expect(undone.recreated.sort()).toEqual([...ids].sort());
    const back = await Promise.all(ids.map(read));
    expect(back.map((n) => ({ title: n.title, content: n.content, tags: n.tags }))).toEqual(
      before.map((n) => ({ title: n.title, content: n.content, tags: n.tags })),
    );

    const listed = await callOk<{ operations: Operation[] }>(session, 'list_operations', {});
    const undoEntry = listed.operations.find((o) => o.id === undone.undo_operation_id) as Operation;
    expect(undoEntry).toMatchObject({
      operation: 'undo_operation',
      undoes: deleted.operation_id,
      state: 'done',
      undoable: true,
      by: 'notekernel-e2e 1.0.0',
    });
    expect(listed.operations.find((o) => o.id === deleted.operation_id)).toMatchObject({
      operation: 'bulk_delete_notes',
      state: 'undone',
      by: 'notekernel-e2e 1.0.0',
    });

    // Undoing the undo deletes them again, and the bulk delete is done (undoable) once more.
    const redo = await callOk<{ deleted: string[] }>(session, 'undo_operation', {
      operation_id: undone.undo_operation_id,
    });
    expect(redo.deleted.sort()).toEqual([...ids].sort());
    for (const id of ids) expect(fs.existsSync(path.join(root, id))).toBe(false);
    const relisted = await callOk<{ operations: Operation[] }>(session, 'list_operations', {});
    expect(relisted.operations.find((o) => o.id === deleted.operation_id)).toMatchObject({
      state: 'done',
      undoable: true,
    });
  }, 120_000);

  it('undoes a type migration: every moved note is its old file again, byte for byte', async () => {
    const root = await tempDir('nk-undo-migrate-');
    dirs.push(root);
    const session = await open('flint', root);
    for (const type of ['drafts', 'archive'])
      await callOk(session, 'create_note_type', { type_name: type, description: `${type} notes` });
    await callOk(session, 'create_note', {
      notes: Array.from({ length: 6 }, (_, i) => ({
        type: 'drafts',
        title: `Draft ${i}`,
        content: `draft ${i} links [[Draft ${(i + 1) % 6}]]\n`,
      })),
    });
    const before = noteFiles(root);
    const drafts = [...before.keys()].filter((rel) => rel.startsWith('drafts/') && !rel.endsWith('_description.md'));
    const migrated = await callOk<{ operation_id: string }>(session, 'delete_note_type', {
      type_name: 'drafts',
      action: 'migrate',
      target_type: 'archive',
      confirm: true,
    });
    for (const rel of drafts) expect(fs.existsSync(path.join(root, rel.replace('drafts/', 'archive/')))).toBe(true);
    const undone = await callOk<{ moved_back: string[] }>(session, 'undo_operation', {
      operation_id: migrated.operation_id,
    });
    expect(undone.moved_back.sort()).toEqual([...drafts].sort());
    const now = noteFiles(root);
    for (const rel of drafts) {
      expect(now.get(rel), rel).toBe(before.get(rel));
      expect(now.has(rel.replace('drafts/', 'archive/'))).toBe(false);
    }
    const broken = await callOk<{ count: number }>(session, 'find_broken_links', {});
    expect(broken.count).toBe(0);
  }, 120_000);

  it('names the command line as who asked', async () => {
    const root = await tempDir('nk-undo-cli-');
    dirs.push(root);
    const made = await runCli([
      'call',
      'create_note',
      JSON.stringify({
        notes: [
          { title: 'A', content: 'a\n' },
          { title: 'B', content: 'b\n' },
        ],
      }),
      '--profile',
      'flint',
      '--vault',
      root,
      '--json',
    ]);
    expect(made.code, made.stderr).toBe(0);
    const session = await open('flint', root);
    const listed = await callOk<{ operations: Operation[] }>(session, 'list_operations', {});
    expect(listed.operations[0]).toMatchObject({ operation: 'create_note', by: 'cli' });
  }, 120_000);
});
