/**
 * The obsidian profile's multi-note tools through the operation journal (decision 025), over MCP
 * against the built server on a real Obsidian-style vault: batch_update_frontmatter and
 * batch_move_files answer a dry run with the exact plan the real run then writes (each file's
 * unified diff compared with the one its real before and after give; nothing written by the dry
 * run), keep the users' frontmatter as written (key order, comments), and are undone byte for
 * byte — the undo listed, and itself undone.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { unifiedDiff } from '../../../toolkit/plans/unified-diff.js';
import { callOk, callTool, connectStdio, type StdioSession } from '../../support/mcp.js';
import { noteFiles, writeObsidianVault } from '../../support/obsidian-vault.js';
import { removeDir, tempDir } from '../../support/temp.js';

const dirs: string[] = [];
const sessions: StdioSession[] = [];
afterAll(async () => {
  await Promise.all(sessions.map((s) => s.close().catch(() => undefined)));
  await Promise.all(dirs.map(removeDir));
});

interface PlannedNote {
  action: string;
  id?: string;
  diff: string;
}

/** The vault's notes (tool and metadata folders left out). */

async function openVault(): Promise<{ vault: string; session: StdioSession }> {
  const sandbox = await tempDir('nk-obsidian-journal-');
  dirs.push(sandbox);
  const vault = path.join(sandbox, 'vault');
  fs.mkdirSync(vault);
  writeObsidianVault(vault);
  const config = path.join(sandbox, 'obsidian.yaml');
  fs.writeFileSync(
    config,
    'profile: obsidian\nsearch:\n  backend: hybrid-search\n  options: { embedder: hashed, embedThreads: 0 }\n',
  );
  const session = await connectStdio(['serve', '--config', config, '--vault', vault], {
    NOTEKERNEL_CONFIG_DIR: path.join(sandbox, 'config'),
  });
  sessions.push(session);
  return { vault, session };
}

/** Every file that differs between two snapshots, as the plan would name it: path and unified diff. */
function changes(before: Map<string, string>, after: Map<string, string>): Array<{ id: string; diff: string }> {
  const paths = [...new Set([...before.keys(), ...after.keys()])].filter((p) => before.get(p) !== after.get(p)).sort();
  return paths.map((p) => ({ id: p, diff: unifiedDiff(before.get(p) ?? '', after.get(p) ?? '') }));
}

const shape = (planned: PlannedNote[]) =>
  planned.map((n) => ({ id: n.id as string, diff: n.diff })).sort((a, b) => a.id.localeCompare(b.id));

const MOVES = [
  { source: 'Projects/Project Alpha.md', destination: 'Archive/2024/Project Apex.md' },
  { source: 'People/Ada.md', destination: 'People/Ada Lovelace.md' },
];

describe('obsidian multi-note tools are journalled', () => {
  it('batch_update_frontmatter: the dry run is the plan the real run writes; frontmatter kept as written; undone byte for byte', async () => {
    const { vault, session } = await openVault();
    const paths = [
      'Projects/Project Alpha.md',
      'Projects/Active Work/Big Plan.md',
      'Meetings/Weekly Sync.md',
      'People/Ada.md',
    ];
    const before = noteFiles(vault);
    const plan = await callOk<{ notes: PlannedNote[]; refused: unknown[] }>(session, 'batch_update_frontmatter', {
      paths,
      field: 'status',
      value: 'archived',
      dry_run: true,
    });
    expect(noteFiles(vault)).toEqual(before);
    expect(plan.refused).toEqual([]);
    const done = await callOk<{ succeeded: number; operation_id: string }>(session, 'batch_update_frontmatter', {
      paths,
      field: 'status',
      value: 'archived',
    });
    expect(done.succeeded).toBe(4);
    const after = noteFiles(vault);
    expect(shape(plan.notes)).toEqual(changes(before, after));
    // Only the field's own line changes: the comment, the spacing and the key order stay.
    expect(after.get('Projects/Project Alpha.md')).toBe(
      (before.get('Projects/Project Alpha.md') as string).replace('status: active', 'status: archived'),
    );

    const undone = await callOk<{ restored: string[]; undo_operation_id: string }>(session, 'undo_operation', {
      operation_id: done.operation_id,
    });
    expect(undone.restored.sort()).toEqual([...paths].sort());
    expect(noteFiles(vault)).toEqual(before);
    const listed = await callOk<{
      operations: Array<{ id: string; operation: string; state: string; undoes?: string; by?: string }>;
    }>(session, 'list_operations', {});
    expect(listed.operations[0]).toMatchObject({
      id: undone.undo_operation_id,
      operation: 'undo_operation',
      undoes: done.operation_id,
      by: 'notekernel-e2e 1.0.0',
    });
    await callOk(session, 'undo_operation', { operation_id: undone.undo_operation_id });
    expect(noteFiles(vault)).toEqual(after);
  }, 120_000);

  it('batch_move_files: the dry run is the plan (copies, sources removed, links rewritten) the real run writes; undone byte for byte', async () => {
    const { vault, session } = await openVault();
    const before = noteFiles(vault);
    const plan = await callOk<{ notes: PlannedNote[]; refused: unknown[] }>(session, 'batch_move_files', {
      moves: MOVES,
      dry_run: true,
    });
    expect(noteFiles(vault)).toEqual(before);
    const done = await callOk<{ succeeded: number; operation_id: string }>(session, 'batch_move_files', {
      moves: MOVES,
    });
    expect(done.succeeded).toBe(2);
    const after = noteFiles(vault);
    expect(after.has('Projects/Project Alpha.md')).toBe(false);
    expect(after.get('Meetings/Weekly Sync.md')).toContain('[[Project Apex]]');
    expect(after.get('Archive/2024/Project Apex.md')).toContain('[[Ada Lovelace]]');
    expect(shape(plan.notes)).toEqual(changes(before, after));

    const undone = await callOk<{ undo_operation_id: string }>(session, 'undo_operation', {
      operation_id: done.operation_id,
    });
    expect(undone.undo_operation_id).toBeTruthy();
    expect(noteFiles(vault)).toEqual(before);
    const backlinks = await callOk<unknown>(session, 'find_backlinks', { note_name: 'Project Alpha' });
    expect(JSON.stringify(backlinks)).toContain('Weekly Sync');
  }, 120_000);

  it('an undo after an outside edit of a moved note is refused naming it', async () => {
    const { vault, session } = await openVault();
    const done = await callOk<{ operation_id: string }>(session, 'move_file', {
      source: 'People/Ada.md',
      destination: 'People/Ada Lovelace.md',
    });
    const moved = path.join(vault, 'People', 'Ada Lovelace.md');
    fs.writeFileSync(moved, `${fs.readFileSync(moved, 'utf8')}\nEdited by hand.\n`);
    const edited = noteFiles(vault);
    const refused = await callTool(session.client, 'undo_operation', { operation_id: done.operation_id });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.body)).toContain('People/Ada Lovelace.md');
    expect(noteFiles(vault)).toEqual(edited);
  }, 120_000);
});
