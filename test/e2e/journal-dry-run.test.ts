/**
 * dry_run on the tools that change more than one note (rename_note, memory_rename, batch
 * create_note and update_note, bulk_delete_notes, delete_note_type's migrate and delete,
 * rename_tag), over MCP against the built server: the dry run writes nothing (every file byte
 * for byte, no journal entry), and its plan is exactly what the real run then applies — the same
 * notes, titles and text changes (each note's diff compared with the one its real before and
 * after text give, the diff itself checked against GNU diff in the unit tests).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { unifiedDiff } from '../../toolkit/plans/unified-diff.js';
import { noteFiles } from '../support/obsidian-vault.js';
import { callOk, connectStdio, type StdioSession } from '../support/mcp.js';
import { removeDir, tempDir } from '../support/temp.js';

const dirs: string[] = [];
const sessions: StdioSession[] = [];
afterAll(async () => {
  await Promise.all(sessions.map((s) => s.close().catch(() => undefined)));
  await Promise.all(dirs.map(removeDir));
});

interface PlannedNote {
  index: number;
  action: string;
  id?: string;
  title: { before: string | null; after: string | null };
  diff: string;
}

async function open(profile: string, root: string): Promise<StdioSession> {
  const session = await connectStdio(['serve', '--profile', profile, '--vault', root]);
  sessions.push(session);
  return session;
}

function journalFiles(root: string, metaDir: string): string[] {
  try {
    return fs.readdirSync(path.join(root, metaDir, 'journal')).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
}

describe('dry runs return the plan the real run applies', () => {
  it('rename_note: every linking note, with the diff the rename then makes', async () => {
    const root = await tempDir('nk-dry-rename-');
    dirs.push(root);
    const session = await open('flint', root);
    await callOk(session, 'create_note', {
      notes: [
        { title: 'Hub', content: 'The hub links [[Hub]] to itself.\n' },
        ...Array.from({ length: 30 }, (_, i) => ({
          title: `Linker ${i}`,
          content: `intro\n\nNote ${i} points to [[Hub]].\n\nand [[Hub|the hub]] again\n`,
        })),
        { title: 'Unrelated', content: 'no links\n' },
      ],
    });
    const hub = await callOk<{ content_hash: string }>(session, 'get_note', { identifier: 'general/hub.md' });
    const beforeFiles = noteFiles(root);
    const journalBefore = journalFiles(root, '.flint-note');
    const contentBefore = new Map<string, { title: string; content: string }>();
    for (const rel of beforeFiles.keys()) {
      if (!rel.startsWith('general/') || rel.endsWith('_description.md')) continue; // type files, not notes
      const note = await callOk<{ title: string; content: string }>(session, 'get_note', { identifier: rel });
      contentBefore.set(rel, note);
    }

    const plan = await callOk<{ dry_run: boolean; notes: PlannedNote[] }>(session, 'rename_note', {
      identifier: 'general/hub.md',
      new_title: 'Central Hub',
      content_hash: hub.content_hash,
      dry_run: true,
    });
    expect(plan.dry_run).toBe(true);
    expect(noteFiles(root)).toEqual(beforeFiles);
    expect(journalFiles(root, '.flint-note')).toEqual(journalBefore);
    expect(plan.notes.length).toBe(31);

    await callOk(session, 'rename_note', {
      identifier: 'general/hub.md',
      new_title: 'Central Hub',
      content_hash: hub.content_hash,
    });
    const changed: PlannedNote[] = [];
    for (const [rel, before] of contentBefore) {
      const after = await callOk<{ title: string; content: string }>(session, 'get_note', { identifier: rel });
      if (after.title === before.title && after.content === before.content) continue;
      changed.push({
        index: -1,
        action: 'update',
        id: rel,
        title: { before: before.title, after: after.title },
        diff: unifiedDiff(before.content, after.content),
      });
    }
    const shape = (notes: PlannedNote[]) =>
      notes
        .map((n) => ({ id: n.id, title: n.title, diff: n.diff }))
        .sort((a, b) => ((a.id ?? '') < (b.id ?? '') ? -1 : 1));
    expect(shape(plan.notes)).toEqual(shape(changed));
    expect(plan.notes.find((n) => n.id === 'general/linker-3.md')?.diff).toContain(
      '-Note 3 points to [[Hub]].\n+Note 3 points to [[Central Hub]].',
    );
  }, 120_000);

  it('memory_rename: the entry and every inbound entry, as the real rename writes them', async () => {
    const root = await tempDir('nk-dry-memory-');
    dirs.push(root);
    fs.writeFileSync(path.join(root, 'target id__Targ11.md'), '# Target\n\nbody\n');
    for (let i = 1; i <= 9; i++)
      fs.writeFileSync(
        path.join(root, `e${i} id__Entr${i}${i}.md`),
        `# E${i}\n\nsee [[id__Targ11|Target]] and [[id__Targ11|mine]]\n`,
      );
    const session = await open('agent-memory', root);
    await callOk(session, 'memory_list', {});
    const beforeFiles = noteFiles(root);
    const plan = await callOk<{ notes: PlannedNote[] }>(session, 'memory_rename', {
      id: 'id__Targ11',
      new_title: 'Renamed',
      dry_run: true,
    });
    expect(noteFiles(root)).toEqual(beforeFiles);
    expect(journalFiles(root, '.notekernel')).toEqual([]);

    await callOk(session, 'memory_rename', { id: 'id__Targ11', new_title: 'Renamed' });
    const afterFiles = noteFiles(root);
    const byId = (files: Map<string, string>) =>
      new Map(
        [...files]
          .filter(([rel]) => /id__\w{6}\.md$/.test(rel))
          .map(([rel, text]) => [/id__\w{6}/.exec(rel)?.[0] as string, text]),
      );
    const [b, a] = [byId(beforeFiles), byId(afterFiles)];
    const changedIds = [...b.keys()].filter((id) => b.get(id) !== a.get(id)).sort();
    expect(plan.notes.map((n) => n.id).sort()).toEqual(changedIds);
    for (const n of plan.notes.filter((x) => x.id !== 'id__Targ11')) {
      // An entry file is its heading and its body: the body's diff is the file's, one heading down.
      const body = (text: string) => text.replace(/^# .*\n\n/, '');
      expect(n.diff, n.id).toBe(
        unifiedDiff(body(b.get(n.id as string) as string), body(a.get(n.id as string) as string)),
      );
      expect(n.diff).toContain('+see [[id__Targ11|Renamed]] and [[id__Targ11|mine]]');
    }
    expect(plan.notes.find((n) => n.id === 'id__Targ11')?.title).toEqual({ before: 'Target', after: 'Renamed' });
  }, 120_000);

  it('batch create_note: the notes it would create, and none exist until the real run', async () => {
    const root = await tempDir('nk-dry-batch-');
    dirs.push(root);
    const session = await open('flint', root);
    const notes = Array.from({ length: 25 }, (_, i) => ({ title: `Batch ${i}`, content: `text ${i}\n` }));
    const beforeFiles = noteFiles(root);
    const plan = await callOk<{ notes: PlannedNote[]; refused: unknown[] }>(session, 'create_note', {
      notes,
      dry_run: true,
    });
    expect(noteFiles(root)).toEqual(beforeFiles);
    expect(journalFiles(root, '.flint-note')).toEqual([]);
    expect(plan.refused).toEqual([]);
    const created = await callOk<{ results: Array<{ result: { id: string; title: string } }> }>(
      session,
      'create_note',
      { notes },
    );
    const real = await Promise.all(
      created.results.map((r) =>
        callOk<{ title: string; content: string }>(session, 'get_note', { identifier: r.result.id }),
      ),
    );
    expect(plan.notes.map((n) => ({ title: n.title.after, diff: n.diff }))).toEqual(
      real.map((n) => ({ title: n.title, diff: unifiedDiff('', n.content) })),
    );
  }, 120_000);

  it('batch update_note: each note with the diff the real batch then writes', async () => {
    const root = await tempDir('nk-dry-update-');
    dirs.push(root);
    const session = await open('flint', root);
    const created = await callOk<{ results: Array<{ result: { id: string } }> }>(session, 'create_note', {
      notes: Array.from({ length: 12 }, (_, i) => ({ title: `Doc ${i}`, content: `first line\nsecond ${i}\nthird\n` })),
    });
    const ids = created.results.map((r) => r.result.id);
    const read = (id: string) =>
      callOk<{ content: string; content_hash: string; title: string }>(session, 'get_note', { identifier: id });
    const before = await Promise.all(ids.map(read));
    const updates = ids.map((id, i) => ({
      identifier: id,
      content: `first line\nsecond ${i} changed\nthird\n`,
      content_hash: before[i]?.content_hash,
    }));
    const files = noteFiles(root);
    const plan = await callOk<{ notes: PlannedNote[]; refused: unknown[] }>(session, 'update_note', {
      updates,
      dry_run: true,
    });
    expect(noteFiles(root)).toEqual(files);
    expect(plan.refused).toEqual([]);
    const done = await callOk<{ successful: number; operation_id: string }>(session, 'update_note', { updates });
    expect(done.successful).toBe(12);
    expect(done.operation_id).toBeTruthy();
    const after = await Promise.all(ids.map(read));
    expect(plan.notes.map((n) => ({ id: n.id, diff: n.diff }))).toEqual(
      ids.map((id, i) => ({ id, diff: unifiedDiff(before[i]?.content ?? '', after[i]?.content ?? '') })),
    );
  }, 120_000);

  it('bulk_delete_notes: the notes it would delete, each with its whole text, and the real run deletes exactly those', async () => {
    const root = await tempDir('nk-dry-bulk-');
    dirs.push(root);
    const session = await open('flint', root);
    await callOk(session, 'create_note', {
      notes: [
        ...Array.from({ length: 6 }, (_, i) => ({ title: `Old ${i}`, content: `obsolete ${i}\n` })),
        { title: 'Keep', content: 'kept\n' },
      ],
    });
    const files = noteFiles(root);
    const journalBefore = journalFiles(root, '.flint-note');
    const plan = await callOk<{ notes: PlannedNote[]; refused: unknown[] }>(session, 'bulk_delete_notes', {
      pattern: '^Old',
      dry_run: true,
    });
    expect(noteFiles(root)).toEqual(files);
    expect(journalFiles(root, '.flint-note')).toEqual(journalBefore);
    expect(plan.refused).toEqual([]);
    const done = await callOk<{ summary: { successful: number }; operation_id: string }>(session, 'bulk_delete_notes', {
      pattern: '^Old',
      confirm: true,
    });
    expect(done.summary.successful).toBe(6);
    expect(done.operation_id).toBeTruthy();
    const gone = [...files.keys()].filter((rel) => !fs.existsSync(path.join(root, rel))).sort();
    expect(plan.notes.map((n) => n.id).sort()).toEqual(gone);
    for (const n of plan.notes) {
      expect(n.action).toBe('delete');
      expect(n.diff).toContain(`-obsolete ${n.title.before?.slice(4)}`);
    }
  }, 120_000);

  it('delete_note_type migrate and delete: the moves and deletes the real runs make', async () => {
    const root = await tempDir('nk-dry-type-');
    dirs.push(root);
    const session = await open('flint', root);
    for (const type of ['drafts', 'scratch', 'archive'])
      await callOk(session, 'create_note_type', { type_name: type, description: `${type} notes` });
    await callOk(session, 'create_note', {
      notes: Array.from({ length: 5 }, (_, i) => ({ type: 'drafts', title: `Draft ${i}`, content: `draft ${i}\n` })),
    });
    await callOk(session, 'create_note', {
      notes: Array.from({ length: 3 }, (_, i) => ({
        type: 'scratch',
        title: `Scratch ${i}`,
        content: `scratch ${i}\n`,
      })),
    });
    const files = noteFiles(root);
    const migrate = await callOk<{ notes: PlannedNote[] & Array<{ to: string }> }>(session, 'delete_note_type', {
      type_name: 'drafts',
      action: 'migrate',
      target_type: 'archive',
      dry_run: true,
    });
    const remove = await callOk<{ notes: PlannedNote[] }>(session, 'delete_note_type', {
      type_name: 'scratch',
      action: 'delete',
      dry_run: true,
    });
    expect(noteFiles(root)).toEqual(files);
    await callOk(session, 'delete_note_type', {
      type_name: 'drafts',
      action: 'migrate',
      target_type: 'archive',
      confirm: true,
    });
    await callOk(session, 'delete_note_type', { type_name: 'scratch', action: 'delete', confirm: true });
    const after = noteFiles(root);
    const moved = [...files.keys()].filter((rel) => rel.startsWith('drafts/') && !rel.endsWith('_description.md'));
    expect(
      migrate.notes
        .map((n) => ({ id: n.id, to: (n as unknown as { to: string }).to, action: n.action }))
        .sort((a, b) => (a.id ?? '').localeCompare(b.id ?? '')),
    ).toEqual(moved.sort().map((rel) => ({ id: rel, to: rel.replace('drafts/', 'archive/'), action: 'move' })));
    for (const rel of moved) {
      expect(after.has(rel)).toBe(false);
      expect(after.has(rel.replace('drafts/', 'archive/'))).toBe(true);
    }
    const deleted = [...files.keys()]
      .filter((rel) => rel.startsWith('scratch/') && !rel.endsWith('_description.md'))
      .sort();
    expect(remove.notes.map((n) => n.id).sort()).toEqual(deleted);
    for (const rel of deleted) expect(after.has(rel)).toBe(false);
  }, 120_000);

  it('rename_tag: the plan holds the diff the real rename writes', async () => {
    const root = await tempDir('nk-dry-tag-');
    dirs.push(root);
    const session = await open('flint', root);
    const created = await callOk<{ results: Array<{ result: { id: string } }> }>(session, 'create_note', {
      notes: [
        ...Array.from({ length: 8 }, (_, i) => ({
          title: `Tagged ${i}`,
          content: `about #project/alpha and #projectx\nline ${i}\n`,
        })),
        { title: 'Other', content: 'no tags\n' },
      ],
    });
    const ids = created.results.map((r) => r.result.id);
    const read = (id: string) => callOk<{ content: string }>(session, 'get_note', { identifier: id });
    const before = await Promise.all(ids.map(read));
    const files = noteFiles(root);
    const dry = await callOk<{ plan: { notes: PlannedNote[] } }>(session, 'rename_tag', {
      from: 'project',
      to: 'work',
    });
    expect(noteFiles(root)).toEqual(files);
    const real = await callOk<{ notes_updated: number; operation_id: string }>(session, 'rename_tag', {
      from: 'project',
      to: 'work',
      dry_run: false,
    });
    expect(real.notes_updated).toBe(8);
    expect(real.operation_id).toBeTruthy();
    const after = await Promise.all(ids.map(read));
    const changed = ids.flatMap((id, i) =>
      before[i]?.content === after[i]?.content
        ? []
        : [{ id, diff: unifiedDiff(before[i]?.content ?? '', after[i]?.content ?? '') }],
    );
    expect(dry.plan.notes.map((n) => ({ id: n.id, diff: n.diff }))).toEqual(changed);
    expect(changed).toHaveLength(8);
    expect(changed[0]?.diff).toContain('+about #work/alpha and #projectx');
  }, 120_000);
});
