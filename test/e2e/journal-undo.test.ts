/**
 * Undo over MCP against the built server: a rename with its link rewrites is listed by
 * list_operations (tool, time, notes) and undone byte for byte — in a server started after the
 * rename; an undo after an outside edit of one touched note is refused naming that note, and
 * with force: true keeps the edit and adds the previous state as a conflict copy; a batch create
 * is undone by deleting the notes it made.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { callTool, connectStdio, type StdioSession } from '../support/mcp.js';
import { removeDir, tempDir } from '../support/temp.js';

const dirs: string[] = [];
const sessions: StdioSession[] = [];
afterAll(async () => {
  await Promise.all(sessions.map((s) => s.close().catch(() => undefined)));
  await Promise.all(dirs.map(removeDir));
});

function noteFiles(root: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    const rel = path.relative(root, path.join(entry.parentPath, entry.name));
    if (entry.isFile() && !rel.split(path.sep).some((p) => p.startsWith('.'))) out.set(rel, fs.readFileSync(path.join(root, rel), 'utf8'));
  }
  return out;
}

async function open(profile: string, root: string): Promise<StdioSession> {
  const session = await connectStdio(['serve', '--profile', profile, '--vault', root]);
  sessions.push(session);
  return session;
}

async function call<T>(session: StdioSession, name: string, args: Record<string, unknown>): Promise<T> {
  const answer = await callTool(session.client, name, args);
  if (answer.isError) throw new Error(`${name}: ${JSON.stringify(answer.body)}`);
  return answer.body as T;
}

interface Operation {
  id: string;
  operation: string;
  at: string;
  state: string;
  notes: string[];
  undoable: boolean;
}

async function renameWithLinks(root: string, session: StdioSession, linkers: number): Promise<{ before: Map<string, string>; operationId: string }> {
  await call(session, 'create_note', {
    notes: [{ title: 'Hub', content: 'The hub.\n' }, ...Array.from({ length: linkers }, (_, i) => ({ title: `Linker ${i}`, content: `Note ${i}: [[Hub]] and [[Hub|the hub]].\n` }))],
  });
  const hub = await call<{ content_hash: string }>(session, 'get_note', { identifier: 'general/hub.md' });
  const before = noteFiles(root);
  const renamed = await call<{ operation_id: string; total_wikilinks_updated: number }>(session, 'rename_note', { identifier: 'general/hub.md', new_title: 'Central Hub', content_hash: hub.content_hash });
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
    const listed = await call<{ operations: Operation[] }>(second, 'list_operations', {});
    const entry = listed.operations.find((o) => o.id === operationId) as Operation;
    expect(entry).toMatchObject({ operation: 'rename_note', state: 'done', undoable: true });
    expect(entry.notes).toHaveLength(31);
    expect(entry.notes).toContain('general/hub.md');
    expect(Date.now() - Date.parse(entry.at)).toBeLessThan(120_000);

    const undone = await call<{ restored: string[] }>(second, 'undo_operation', { operation_id: operationId });
    expect(undone.restored).toHaveLength(31);
    expect(noteFiles(root)).toEqual(before);
    const hub = await call<{ title: string }>(second, 'get_note', { identifier: 'general/hub.md' });
    expect(hub.title).toBe('Hub');
    const backlinks = await call<{ backlinks: unknown[] }>(second, 'get_backlinks', { identifier: 'general/hub.md' });
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

    const forced = await call<{ restored: string[]; conflict_copies: Array<{ id: string; copy: string }> }>(session, 'undo_operation', { operation_id: operationId, force: true });
    expect(forced.restored).toHaveLength(5);
    expect(forced.conflict_copies.map((c) => c.id)).toEqual(['general/linker-2.md']);
    expect(fs.readFileSync(edited, 'utf8')).toBe(afterEdit.get('general/linker-2.md'));
    const copy = await call<{ content: string }>(session, 'get_note', { identifier: forced.conflict_copies[0]?.copy });
    expect(copy.content).toBe('Note 2: [[Hub]] and [[Hub|the hub]].\n');
  }, 120_000);

  it('undoes a batch create by deleting the notes it made', async () => {
    const root = await tempDir('nk-undo-batch-');
    dirs.push(root);
    const session = await open('flint', root);
    const before = noteFiles(root);
    const created = await call<{ operation_id: string; successful: number }>(session, 'create_note', { notes: Array.from({ length: 20 }, (_, i) => ({ title: `Made ${i}`, content: `x${i}\n` })) });
    expect(created.successful).toBe(20);
    const undone = await call<{ deleted: string[] }>(session, 'undo_operation', { operation_id: created.operation_id });
    expect(undone.deleted).toHaveLength(20);
    expect(noteFiles(root)).toEqual(before);
  }, 120_000);
});
