/**
 * The `migrate` tool as one journalled operation (decision 025), over MCP against the built
 * server on a git-less agent-memory folder of v1 entries: its dry run writes nothing and returns
 * the plan the real run then applies (each file, its action and its diff, checked against the
 * files before and after); the run is listed by list_operations; undo_operation, in a server
 * started after it, puts every v1 file back byte for byte and removes the v2 files. The CLI's
 * `notekernel migrate` on the vault folder is the same operation.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { unifiedDiff } from '../../toolkit/plans/unified-diff.js';
import { callOk, connectStdio, type StdioSession } from '../support/mcp.js';
import { runCli } from '../support/run-cli.js';
import { removeDir, tempDir } from '../support/temp.js';

const dirs: string[] = [];
const sessions: StdioSession[] = [];
afterAll(async () => {
  await Promise.all(sessions.map((s) => s.close().catch(() => undefined)));
  await Promise.all(dirs.map(removeDir));
});

const meta = (fields: Record<string, unknown>) => `<!-- agent-memory:meta ${JSON.stringify(fields)} -->\n\n`;

const V1: Record<string, string> = {
  '_top-of-mind igor-fullstack-developer id__Ab3xYz.md':
    meta({
      id: 'id__Ab3xYz',
      title: 'Igor — fullstack developer',
      tags: ['topic__people'],
      status: 'active',
      updatedAt: '2024-02-03T04:05:06.000Z',
      used: 12,
    }) + 'igor works on the [[id__Kf9mNp|console app]].\n',
  'query-builder id__Qw2vBc.md':
    meta({ id: 'id__Qw2vBc', title: 'Query builder decisions', tags: [] }) +
    '# Query builder decisions\n\nuse [[id__Ab3xYz]].\n',
  'orgs/axiom/console-app id__Kf9mNp.md':
    meta({ id: 'id__Kf9mNp', title: 'Console app', tags: ['project'], status: 'active' }) + 'the console app.\n',
  'archive/old-idea id__Old111.md': meta({ id: 'id__Old111', title: 'Old idea', status: 'archived' }) + 'dropped\n',
  'already-v2 id__New333.md': '# Already v2\n\n#fresh\n\nnothing to do\n',
  'broken id__Bad444.md': '<!-- agent-memory:meta {"id": "id__Bad444", "title": oops} -->\n\nkept as is\n',
};

const V2: Record<string, string> = {
  'igor-fullstack-developer id__Ab3xYz.md':
    '# Igor — fullstack developer\n\n#topic__people\n\nigor works on the [[id__Kf9mNp|console app]].\n',
  'query-builder-decisions id__Qw2vBc.md': '# Query builder decisions\n\nuse [[id__Ab3xYz]].\n',
  'orgs/axiom/console-app id__Kf9mNp.md': '# Console app\n\n#project\n\nthe console app.\n',
  'archive/old-idea id__Old111.md': '# Old idea\n\ndropped\n',
  'already-v2 id__New333.md': V1['already-v2 id__New333.md'] as string,
  'broken id__Bad444.md': V1['broken id__Bad444.md'] as string,
};

interface PlannedFile {
  action: string;
  id?: string;
  diff: string;
}
interface Report {
  dryRun: boolean;
  migrated: Array<{ from: string; to: string }>;
  skipped: unknown[];
  errors: Array<{ path: string }>;
  operation_id?: string;
  plan?: { dry_run: boolean; operation: string; notes: PlannedFile[]; refused: unknown[] };
}

function readTree(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    const rel = path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
    if (entry.isFile() && !rel.split('/').some((p) => p.startsWith('.')))
      out[rel] = fs.readFileSync(path.join(root, rel), 'utf8');
  }
  return out;
}

function writeTree(root: string, files: Record<string, string>): void {
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
}

async function open(root: string): Promise<StdioSession> {
  const session = await connectStdio(['serve', '--profile', 'agent-memory', '--vault', root]);
  sessions.push(session);
  return session;
}

describe('migrate, journalled (MCP)', () => {
  it('dry run is the applied plan; the run is listed; undo after a restart puts the v1 files back byte for byte', async () => {
    const root = await tempDir('nk-migrate-journal-');
    dirs.push(root);
    writeTree(root, V1);
    const first = await open(root);

    const dry = await callOk<Report>(first, 'migrate', { step: 'agent-memory-v2', dry_run: true });
    expect(readTree(root)).toEqual(V1);
    expect(dry).toMatchObject({ dryRun: true, plan: { dry_run: true, operation: 'migrate', refused: [] } });
    expect(dry.migrated).toHaveLength(4);
    expect(dry.errors.map((e) => e.path)).toEqual(['broken id__Bad444.md']);
    const planned = dry.plan?.notes ?? [];
    // Three renamed entries (a new file, the old one removed) and one rewritten in place.
    expect(planned.map((n) => `${n.action} ${n.id}`).sort()).toEqual(
      [
        'create igor-fullstack-developer id__Ab3xYz.md',
        'delete _top-of-mind igor-fullstack-developer id__Ab3xYz.md',
        'create query-builder-decisions id__Qw2vBc.md',
        'delete query-builder id__Qw2vBc.md',
        'update orgs/axiom/console-app id__Kf9mNp.md',
        'update archive/old-idea id__Old111.md',
      ].sort(),
    );

    const run = await callOk<Report>(first, 'migrate', { step: 'agent-memory-v2' });
    expect(run.dryRun).toBe(false);
    expect(run.migrated).toEqual(dry.migrated);
    expect(run.operation_id).toMatch(/\S/);
    const after = readTree(root);
    expect(after).toEqual(V2);
    // Every planned file's diff is the one its real text before and after gives.
    for (const n of planned) {
      const rel = n.id as string;
      expect(n.diff, rel).toBe(unifiedDiff(V1[rel] ?? '', after[rel] ?? ''));
    }
    // The open vault sees the migrated entries.
    const igor = await callOk<{ title: string; tags: string[] }>(first, 'memory_read', { id: 'Ab3xYz' });
    expect(igor).toMatchObject({ title: 'Igor — fullstack developer', tags: ['topic__people'] });
    await first.close();

    const second = await open(root);
    const listed = await callOk<{
      operations: Array<{ id: string; operation: string; notes: string[]; undoable: boolean }>;
    }>(second, 'list_operations', {});
    const op = listed.operations.find((o) => o.id === run.operation_id);
    expect(op).toMatchObject({ operation: 'migrate', undoable: true });
    expect(op?.notes.length).toBe(6);

    const undone = await callOk<{ restored: string[]; deleted: string[]; recreated: string[] }>(
      second,
      'undo_operation',
      { operation_id: run.operation_id },
    );
    expect([undone.restored.length, undone.deleted.length, undone.recreated.length]).toEqual([2, 2, 2]);
    expect(readTree(root)).toEqual(V1);
    // Once undone, the migration can be run again and gives the same v2 tree.
    const again = await callOk<Report>(second, 'migrate', { step: 'agent-memory-v2' });
    expect(again.migrated).toEqual(run.migrated);
    expect(readTree(root)).toEqual(V2);
  });

  it('notekernel migrate on a vault folder is the same journalled operation: listed, and undone byte for byte', async () => {
    const root = await tempDir('nk-migrate-journal-cli-');
    dirs.push(root);
    writeTree(root, V1);
    const run = await runCli(['migrate', 'agent-memory-v2', '--root-dir', root, '--json']);
    expect(run.code, run.stderr).toBe(1); // the broken entry is reported and left as it is
    const report = JSON.parse(run.stdout) as Report;
    expect(report.operation_id).toMatch(/\S/);
    expect(readTree(root)).toEqual(V2);

    const session = await open(root);
    const listed = await callOk<{ operations: Array<{ id: string; operation: string; undoable: boolean }> }>(
      session,
      'list_operations',
      {},
    );
    expect(listed.operations.find((o) => o.id === report.operation_id)).toMatchObject({
      operation: 'migrate',
      undoable: true,
    });
    await callOk(session, 'undo_operation', { operation_id: report.operation_id });
    expect(readTree(root)).toEqual(V1);
  });
});
