/**
 * The agent-memory-v2 migration on a v1 tree written here: every v1 field, top-of-mind files,
 * archive folders (root and org), an entry already in v2, a corrupt header, a header without
 * an id. Checked byte for byte against the expected v2 tree, through the plugin's CLI command
 * (the vault open on the migrated root) and its tool.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { noProgress } from '../../../kernel/progress.js';
import type { CliInput } from '../../../kernel/plugin.js';
import { createTestKernel, removeDir, tempDir, type TestKernel } from '../../support/temp.js';
import { migrationPlugin } from '../../../plugins/migration/index.js';

const meta = (fields: Record<string, unknown>) => `<!-- agent-memory:meta ${JSON.stringify(fields)} -->\n\n`;

const V1: Record<string, string> = {
  '_top-of-mind igor-fullstack-developer id__Ab3xYz.md':
    meta({
      id: 'id__Ab3xYz',
      title: 'Igor — fullstack developer',
      tags: ['topic__people', 'area__work'],
      status: 'active',
      createdAt: '2024-01-02T03:04:05.000Z',
      updatedAt: '2024-02-03T04:05:06.000Z',
      used: 12,
      last_used: '2024-03-01T00:00:00.000Z',
      pinned: true,
    }) + 'igor is a fullstack developer.\nhe works on the [[id__Kf9mNp|console app]] at axiom.\n',
  'query-builder id__Qw2vBc.md':
    meta({ id: 'id__Qw2vBc', title: 'Query builder decisions', tags: [], status: 'active', used: 0, pinned: false }) +
    '# Query builder decisions\n\nuse [[id__Ab3xYz]] for design.\n',
  'archive/old-idea id__Old111.md':
    meta({
      id: 'id__Old111',
      title: 'Old idea',
      tags: ['machine learning'],
      status: 'archived',
      createdAt: '2023-01-01T00:00:00.000Z',
      updatedAt: '2023-06-01T00:00:00.000Z',
    }) + 'an idea we dropped\n',
  'orgs/axiom/console-app id__Kf9mNp.md':
    meta({ id: 'id__Kf9mNp', title: 'Console app', tags: ['project'], status: 'active', source: 'slack' }) +
    'the console app.\n',
  'orgs/axiom/archive/_top-of-mind legacy id__Leg222.md':
    meta({ title: 'Legacy: v0 API', tags: ['#project'], status: 'archived' }) + 'retired.\n',
  'already-v2 id__New333.md': '# Already v2\n\n#fresh\n\nnothing to do\n',
  'broken id__Bad444.md': '<!-- agent-memory:meta {"id": "id__Bad444", "title": oops} -->\n\nbody kept as is\n',
  'no-id.md': meta({ title: 'Nameless' }) + 'no id anywhere\n',
  'notes/README.txt': 'not markdown\n',
};

const V2: Record<string, string> = {
  'igor-fullstack-developer id__Ab3xYz.md':
    '# Igor — fullstack developer\n\n#topic__people #area__work\n\nigor is a fullstack developer.\nhe works on the [[id__Kf9mNp|console app]] at axiom.\n',
  'query-builder-decisions id__Qw2vBc.md': '# Query builder decisions\n\nuse [[id__Ab3xYz]] for design.\n',
  'archive/old-idea id__Old111.md': '# Old idea\n\n#machine-learning\n\nan idea we dropped\n',
  'orgs/axiom/console-app id__Kf9mNp.md': '# Console app\n\n#project\n\nthe console app.\n',
  'orgs/axiom/archive/legacy-v0-api id__Leg222.md': '# Legacy: v0 API\n\n#project\n\nretired.\n',
  'already-v2 id__New333.md': V1['already-v2 id__New333.md'] as string,
  'broken id__Bad444.md': V1['broken id__Bad444.md'] as string,
  'no-id.md': V1['no-id.md'] as string,
  'notes/README.txt': 'not markdown\n',
};

let root: string;

function writeTree(tree: Record<string, string>): void {
  for (const [rel, text] of Object.entries(tree)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
}

function readTree(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(root, { recursive: true, withFileTypes: true })) {
    const rel = path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
    if (entry.isFile() && !rel.startsWith('.')) out[rel] = fs.readFileSync(path.join(root, rel), 'utf8');
  }
  return out;
}

async function openMemory(): Promise<TestKernel> {
  return createTestKernel({ profile: 'agent-memory', root, init: false });
}

/** The migrate command as the CLI calls it once commander has parsed `migrate <args> <options>`. */
async function cli(
  kernel: TestKernel,
  args: string[],
  options: CliInput['options'] = {},
): Promise<{ code: number; out: string; err: string }> {
  const command = kernel.vault.cliCommands().find((c) => c.name === 'migrate');
  if (!command) throw new Error('the migration plugin contributed no migrate command');
  let out = '';
  let err = '';
  const code = await command.run(
    { args, options },
    { out: (t) => void (out += t), err: (t) => void (err += t), progress: noProgress },
  );
  return { code, out, err };
}

beforeEach(async () => {
  root = await tempDir('nk-migrate-');
  writeTree(V1);
});

afterEach(async () => {
  await removeDir(root);
});

describe('migration agent-memory-v2', () => {
  it('is a step of the migration plugin, reachable as the migrate CLI command and tool', () => {
    expect(migrationPlugin.id).toBe('migration');
  });

  it('--dry-run reports every change and writes nothing', async () => {
    const kernel = await openMemory();
    try {
      const before = readTree();
      const mtimes = Object.keys(before).map((rel) => fs.statSync(path.join(root, rel)).mtimeMs);
      const run = await cli(kernel, ['agent-memory-v2'], { rootDir: root, dryRun: true, json: true });
      const report = JSON.parse(run.out) as {
        dryRun: boolean;
        migrated: unknown[];
        skipped: unknown[];
        errors: unknown[];
      };
      expect(report).toMatchObject({ dryRun: true });
      expect([report.migrated.length, report.skipped.length, report.errors.length]).toEqual([5, 1, 2]);
      expect(readTree()).toEqual(before);
      expect(Object.keys(before).map((rel) => fs.statSync(path.join(root, rel)).mtimeMs)).toEqual(mtimes);
    } finally {
      await kernel.close();
    }
  });

  it('turns the v1 tree into the expected v2 tree byte for byte; failures stay untouched and are reported', async () => {
    const kernel = await openMemory();
    try {
      const run = await cli(kernel, ['agent-memory-v2'], { rootDir: root });
      expect(run.code).toBe(1); // two files could not be migrated
      expect(run.out).toContain('agent-memory-v2: 5 migrated, 1 skipped (already v2), 2 errors');
      expect(run.out).toMatch(/error: broken id__Bad444\.md: the agent-memory:meta header is not valid JSON/);
      expect(run.out).toMatch(/error: no-id\.md: no id/);
      expect(run.out).toContain('dropped v1 field "source"');
      expect(readTree()).toEqual(V2);
      // v1's updatedAt survives as the file time (the fallback when the root has no git).
      expect(fs.statSync(path.join(root, 'igor-fullstack-developer id__Ab3xYz.md')).mtime.toISOString()).toBe(
        '2024-02-03T04:05:06.000Z',
      );
      // The open vault sees the migrated entries at once.
      const igor = (await kernel.vault.call('memory_read', { id: 'Ab3xYz' })) as {
        title: string;
        tags: string[];
        status: string;
      };
      expect(igor).toMatchObject({
        title: 'Igor — fullstack developer',
        tags: ['topic__people', 'area__work'],
        status: 'active',
      });
      const legacy = (await kernel.vault.call('memory_read', { id: 'id__Leg222' })) as { status: string };
      expect(legacy.status).toBe('archived');
    } finally {
      await kernel.close();
    }
  });

  it('a second run changes nothing and reports everything skipped (idempotent)', async () => {
    const kernel = await openMemory();
    try {
      await cli(kernel, ['agent-memory-v2'], { rootDir: root });
      const after = readTree();
      const second = (await kernel.vault.call('migrate', { step: 'agent-memory-v2' })) as {
        migrated: unknown[];
        skipped: unknown[];
        errors: Array<{ path: string }>;
      };
      expect(second.migrated).toEqual([]);
      expect(second.skipped).toHaveLength(6);
      expect(second.errors.map((e) => e.path)).toEqual(['broken id__Bad444.md', 'no-id.md']); // still reported, still untouched
      expect(readTree()).toEqual(after);
    } finally {
      await kernel.close();
    }
  });

  it('finishes a run that stopped between writing the new file and removing the old one', async () => {
    fs.writeFileSync(
      path.join(root, 'igor-fullstack-developer id__Ab3xYz.md'),
      V2['igor-fullstack-developer id__Ab3xYz.md'] as string,
    );
    const kernel = await openMemory();
    try {
      await cli(kernel, ['agent-memory-v2'], { rootDir: root });
      expect(readTree()).toEqual(V2);
    } finally {
      await kernel.close();
    }
  });

  it('refuses a missing step with exit code 2 and an unknown one as not_found', async () => {
    const kernel = await openMemory();
    try {
      expect((await cli(kernel, [])).code).toBe(2);
      await expect(cli(kernel, ['no-such-step'])).rejects.toMatchObject({ code: 'not_found' });
      expect(readTree()).toEqual(V1);
    } finally {
      await kernel.close();
    }
  });
});
